import { describeNativeMultistep } from "./native-multistep";

describeNativeMultistep("a multi-step monitor in YAML through the native plugin", "native-multistep");
