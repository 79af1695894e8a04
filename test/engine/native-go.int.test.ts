import { describeNativeProgram } from "./native-program";

// examples/native-go, built by the Go language host with its SDK `replace`d by the one built here.
describeNativeProgram("a Go program through the native plugin and its generated Go SDK", {
  program: "examples/native-go",
  go: true,
  hookToken: "go-hook-token-4c7b90",
  headerToken: "go-header-token-d25e18",
});
