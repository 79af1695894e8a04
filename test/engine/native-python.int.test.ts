import { describeNativeProgram } from "./native-program";

describeNativeProgram("a Python program through the native plugin and its generated SDK", {
  program: "native-python",
  python: true,
  hookToken: "py-hook-token-8e2f61",
  headerToken: "py-header-token-1a9d3c",
});
