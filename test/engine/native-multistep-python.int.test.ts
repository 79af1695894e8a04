import { describeNativeMultistep } from "./native-multistep";

describeNativeMultistep(
  "a multi-step monitor in Python through the native plugin and its typed step classes",
  "native-multistep-python",
  { python: true },
);
