import { describeNativeMultistep } from "./native-multistep";

describeNativeMultistep(
  "a multi-step monitor in Go through the native plugin and its typed step structs",
  "native-multistep-go",
  { go: true },
);
