/** Health and the reference (`authenticated: false`): no key, no limits, never metered. */
import { successJson, type ServedMeta } from "../envelope";
import { fail, reply } from "./answer";
import type { Call, StageDeps } from "./call";
import { execute } from "./execute";

export async function serveWithoutKey(
  call: Call,
  deps: Pick<StageDeps, "database" | "engine" | "config" | "verifier" | "streams">,
): Promise<Response> {
  const outcome = await execute(call, deps);
  if (!outcome.ok) return fail(call, outcome.error);
  const { route } = call;
  const data = outcome.result.data;
  const meta: ServedMeta = { path: "", planName: "", env: "live", label: "none", requestId: "", now: call.now };
  const body = route.envelope === "none" ? data : successJson(route.envelope, data, meta);
  const status = outcome.result.status ?? route.successStatus ?? 200;
  return reply(status, body, call.requestId, { "cache-control": "no-store" });
}
