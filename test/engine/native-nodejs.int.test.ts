import { describeNativeProgram } from "./native-program";

// A plain JavaScript program on the plugin's compiled Node.js SDK: no dynamic resources.
describeNativeProgram("a JavaScript program through the native plugin and its compiled Node.js SDK", {
  program: "native-nodejs",
  nodejs: true,
  // Drift is the plugin's, checked through the YAML, Python and Go programs.
  drift: false,
  hookToken: "js-hook-token-71f3a2",
  headerToken: "js-header-token-0be94d",
});
