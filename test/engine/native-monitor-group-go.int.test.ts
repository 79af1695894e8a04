import { describeNativeGroup } from "./native-monitor-group";

describeNativeGroup("MonitorGroup in Go through the native plugin and its generated SDK", "native-monitor-group-go", {
  go: true,
});
