/** The licensing gate (docs/api-contract.md §5): an endpoint pending a data-licensing review for the key's environment. */
import { licensingState } from "../config-cache";
import { ApiError } from "../errors";
import type { KeyedCall, StageDeps } from "./call";
import { refuse } from "./refuse";
import { pendingLicensingMessage } from "../../contract/refusals";

/** The refusal's one wording, for the gate, the stream's re-check and the admin console's preview. */
export const pendingLicensing = (route: { method: string; path: string }, env: "test" | "live") =>
  new ApiError("endpoint_pending_licensing", pendingLicensingMessage(route, env));

export async function checkLicensing(
  call: KeyedCall,
  deps: Pick<StageDeps, "admission">,
): Promise<KeyedCall | Response> {
  if (licensingState(call.config, call.route.id, call.caller.env) === "enabled") return call;
  return refuse(call, pendingLicensing(call.route, call.caller.env), deps);
}
