import {
  ASSERTION_DEFAULTS,
  BROWSER_SCRIPT_FIELD,
  MONITOR_EXTENSION_DEFAULTS,
  MONITOR_NETWORK_DEFAULTS,
  GRPC_SERVICE_FIELD,
  MONITOR_RETRY_DEFAULTS,
  MONITOR_STEP_DEFAULTS,
  type MonitorBrowserSpec,
  type MonitorExtensionSpec,
  type MonitorNetworkSpec,
  type MonitorProtocolSpec,
  type MonitorRetrySpec,
  type MonitorStepSpec,
} from "../../api";
import type { ScheduledMonitor } from "../store/monitors";

/** A scheduled monitor with its extension fields (defaults filled in for monitors stored before them). */
export type CheckedMonitor = ScheduledMonitor &
  MonitorExtensionSpec &
  MonitorStepSpec &
  MonitorRetrySpec &
  MonitorProtocolSpec &
  MonitorNetworkSpec &
  MonitorBrowserSpec;

/** Every extension field's default, merged once: a check spreads one object, not seven. */
const EXTENSION_DEFAULTS = Object.freeze({
  ...MONITOR_EXTENSION_DEFAULTS,
  ...ASSERTION_DEFAULTS,
  ...MONITOR_STEP_DEFAULTS,
  ...MONITOR_RETRY_DEFAULTS,
  ...GRPC_SERVICE_FIELD.defaults,
  ...MONITOR_NETWORK_DEFAULTS,
  ...BROWSER_SCRIPT_FIELD.defaults,
});

/** The monitor with every extension field, defaults where it has none. */
export function withExtensions(monitor: ScheduledMonitor): CheckedMonitor {
  return { ...EXTENSION_DEFAULTS, ...monitor } as CheckedMonitor;
}
