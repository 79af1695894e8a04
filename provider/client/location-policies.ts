import { type Location, locationsTargetProblem, stepsTargetProblems, stepTargetUrl, targetProblem } from "../../api";
import type { UptimeClient } from "./client";
import { hasCode } from "./errors";

/** What `GET /api/v1/locations` said: the account's locations, or the key's refusal. */
export type LocationsAnswer = { listed: Location[] } | { refused: Error & { code: string; status: number } };

const asked = new WeakMap<UptimeClient, Promise<LocationsAnswer | undefined>>();

/**
 * The account's checker locations with their outbound policies, or the refusal of the key, asked
 * once per client (a connection) and process; undefined from a server that cannot say (an older
 * one, or one not answering).
 */
export function accountLocations(client: UptimeClient): Promise<LocationsAnswer | undefined> {
  let answer = asked.get(client);
  if (!answer) {
    // A server that cannot be asked is not asked again by this process: the check is then the
    // server's alone, at create, and a preview is not held up once per monitor.
    answer = client.request<Location[]>("GET", "/api/v1/locations").then(
      (r) => ({ listed: r.data }),
      (err: unknown) =>
        hasCode(err, "unauthorized") || hasCode(err, "forbidden")
          ? { refused: err as Error & { code: string; status: number } }
          : undefined,
    );
    asked.set(client, answer);
  }
  return answer;
}

const locations = async (client: UptimeClient) => {
  const answer = await accountLocations(client);
  return answer && "listed" in answer ? answer.listed : undefined;
};

/**
 * Why the places that will probe `url` may not reach it, as the server will judge it at create
 * (api/outbound-policy.ts), or undefined. A target that any place may reach (a public host) costs
 * no request; otherwise the account's locations are asked once per provider process. `names` are
 * the monitor's locations (null: the built-in checker).
 */
export async function targetRefusal(
  client: UptimeClient,
  url: string,
  names: readonly string[] | null,
): Promise<string | undefined> {
  if (targetProblem(url, false) === undefined) return undefined;
  const chosen = await policiesOf(client, names);
  return chosen && locationsTargetProblem(url, chosen);
}

/**
 * Why the places that will run a multi-step monitor may not reach its steps' URLs, as the server
 * judges them at create (`steps[i].url`); a step whose host is a `{{variable}}` is judged when it
 * runs. Public hosts cost no request, as for `targetRefusal`.
 */
export async function stepsRefusals(
  client: UptimeClient,
  steps: readonly { url: string }[],
  names: readonly string[] | null,
): Promise<{ field: string; message: string }[]> {
  if (!steps.some((s) => targetProblem(stepTargetUrl(s.url) ?? "https://example.com/", false) !== undefined)) return [];
  const chosen = await policiesOf(client, names);
  return chosen ? stepsTargetProblems(steps, chosen) : [];
}

/** The policies of the locations `names` (null: the built-in checker), or undefined when the server cannot say. */
async function policiesOf(client: UptimeClient, names: readonly string[] | null) {
  const listed = await locations(client);
  if (!listed) return undefined;
  const chosen = names === null ? listed.filter((l) => l.default) : listed.filter((l) => names.includes(l.name));
  return chosen.map((l) => ({ ...l, builtin: l.default }));
}
