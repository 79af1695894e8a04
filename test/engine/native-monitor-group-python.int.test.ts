import { describeNativeGroup } from "./native-monitor-group";

describeNativeGroup(
  "MonitorGroup in Python through the native plugin and its generated SDK",
  "native-monitor-group-python",
  { python: true },
);
