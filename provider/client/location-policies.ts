import { type Location, locationsTargetProblem, targetProblem } from "../../api";
import type { UptimeClient } from "./client";

const asked = new WeakMap<UptimeClient, Promise<Location[] | undefined>>();

/** The account's checker locations with their outbound policies, asked once per client; undefined from a server that cannot say (an older one, or one not answering). */
function locations(client: UptimeClient): Promise<Location[] | undefined> {
  let answer = asked.get(client);
  if (!answer) {
    // A server that cannot be asked is not asked again by this process: the check is then the
    // server's alone, at create, and a preview is not held up once per monitor.
    answer = client.request<Location[]>("GET", "/api/v1/locations").then(
      (r) => r.data,
      () => undefined,
    );
    asked.set(client, answer);
  }
  return answer;
}

/**
 * Why the places that will probe `url` may not reach it, as the server will judge it at create
 * (api/outbound-policy.ts), or undefined. A target that any place may reach (a public host) costs
 * no request; otherwise the account's locations are asked once per provider process. `names` are
 * the monitor's locations (null: the built-in checker).
 */
export async function targetRefusal(client: UptimeClient, url: string, names: readonly string[] | null): Promise<string | undefined> {
  if (targetProblem(url, false) === undefined) return undefined;
  const listed = await locations(client);
  if (!listed) return undefined;
  const chosen = names === null ? listed.filter((l) => l.default) : listed.filter((l) => names.includes(l.name));
  return locationsTargetProblem(url, chosen.map((l) => ({ ...l, builtin: l.default })));
}
