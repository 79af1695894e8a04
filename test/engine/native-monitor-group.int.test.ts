import { describeNativeGroup } from "./native-monitor-group";

describeNativeGroup(
  "MonitorGroup in YAML through the native plugin (a multi-language component)",
  "native-monitor-group",
);
