// The fault proxy is part of the package (pulumi-uptime-server/testing); tests use that one.
export {
  type Fault,
  type FaultProxy,
  type Storm,
  type StormCounts,
  startFaultProxy,
} from "../../server/testing/fault-proxy";
