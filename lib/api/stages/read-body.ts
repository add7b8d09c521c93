/** Body size (docs/api-contract.md §4): a body route's body is read within the plan's bound; too large → 413. */
import { ApiError } from "../errors";
import { readBody } from "../parse-input";
import { type KeyedCall, type StageDeps, withCall } from "./call";
import { refuse } from "./refuse";

/** Family A routes take no payload limit from the plan; their bodies are bounded here. */
export const FAMILY_A_MAX_BODY_BYTES = 64 * 1024;

export async function readCallBody(call: KeyedCall, deps: Pick<StageDeps, "admission">): Promise<KeyedCall | Response> {
  if (!call.route.body) return call;
  const limit = call.route.family === "B" ? call.caller.plan.bMaxPayloadBytes : FAMILY_A_MAX_BODY_BYTES;
  try {
    return withCall(call, { bodyText: await readBody(call.request, limit) });
  } catch (err) {
    const error =
      err instanceof ApiError ? err : new ApiError("invalid_request", "The request body could not be read.");
    return refuse(call, error, deps);
  }
}
