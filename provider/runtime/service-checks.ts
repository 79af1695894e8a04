/**
 * What only the service knows, checked at preview where the service can be asked: that the API
 * key works, and that a monitor's locations exist and can run its type. The account's locations
 * are asked once per connection and process (client/location-policies.ts); inputs unknown at
 * preview are skipped, not guessed, and a service that does not answer leaves the judgement to
 * the create, which says the same.
 */
import { browserLocationViolations, unknownLocationMessage } from "../../api";
import { clientFor } from "../client/client";
import { type Connection, type PartialConnection, resolveConnection } from "../client/connection";
import { accountLocations } from "../client/location-policies";
import { type Failure, isUnknown, type Props } from "../kinds/values";
import { keyFrom } from "./connection-change";

/** The failures only the service can tell, for a resource of `kind` with inputs `news`. */
export async function serviceFailures(kind: string, news: Props, stackConfig: PartialConnection): Promise<Failure[]> {
  if (isUnknown(news.connection)) return [];
  let connection: Connection;
  try {
    connection = resolveConnection(news.connection as PartialConnection | undefined, stackConfig);
  } catch {
    return [];
  }
  const answer = await accountLocations(clientFor(connection));
  if (!answer) return [];
  if ("refused" in answer) {
    const from = keyFrom(connection, "check");
    return [
      {
        property: "connection",
        reason:
          `the service at ${connection.baseUrl} refused the API key${from ? ` from ${from}` : ""} (HTTP ${answer.refused.status}): it is wrong or has been revoked. ` +
          "Set a valid key there: `pulumi config set --secret uptime:apiKey uk_…`, UPTIME_API_KEY, or the resource's `connection.apiKey`.",
      },
    ];
  }
  return kind === "Monitor" ? locationFailures(news, answer.listed) : [];
}

/** A monitor's locations that the account does not have, or that cannot run its type. */
function locationFailures(
  news: Props,
  listed: readonly { name: string; default: boolean; browser?: boolean | null }[],
): Failure[] {
  const { locations, type } = news;
  if (isUnknown(locations) || (locations !== undefined && locations !== null && !Array.isArray(locations))) return [];
  const names = Array.isArray(locations) ? locations : null;
  const known = listed.map((l) => l.name);
  const failures: Failure[] = [];
  names?.forEach((name, i) => {
    if (typeof name === "string" && !isUnknown(name) && !known.includes(name)) {
      failures.push({ property: "locations", reason: `locations[${i}]: ${unknownLocationMessage(name, known)}` });
    }
  });
  if (type === "browser") {
    const builtin = listed.find((l) => l.default)?.name;
    const runs = new Map(listed.map((l) => [l.name, l.browser ?? undefined]));
    const judged = names?.filter((n): n is string => typeof n === "string" && !isUnknown(n)) ?? null;
    for (const d of browserLocationViolations({ locations: judged }, (name) => runs.get(name), builtin)) {
      failures.push({ property: d.field === "type" ? "type" : "locations", reason: d.message });
    }
  }
  return failures;
}
