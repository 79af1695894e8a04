import { CHECKER_MODULES } from "./index";
import type { MonitorType } from "./monitor-type";

/**
 * The module of monitor type `name` (`index.ts`, which the build writes from the types of
 * `api/monitor-types/`, lists one per type); throws for a type no module implements.
 */
export function monitorType(name: string): MonitorType {
  const found = (CHECKER_MODULES as Record<string, MonitorType>)[name];
  if (!found) throw new Error(`no checker module for monitor type ${name}`);
  return found;
}
