/**
 * Credentials (docs/api-contract.md §2): the configuration and the key. No key, or one unknown, answers 401 unmetered;
 * a known key refused (inactive, subscription) is metered against it and takes its burst unit (refuse.ts). A call the
 * portal makes as one of the account's keys (lib/api/delegation.ts) is that key's, judged the same way.
 */
import { errorFields, log } from "../../log";
import type { GatewayConfig } from "../config-cache";
import { type Authentication, authenticateRequest } from "../credentials";
import { fail, RETRY_SOON, storeUnreachable } from "./answer";
import { type Call, type KeyedCall, keyedCall, type StageDeps } from "./call";
import { refuse } from "./refuse";

export async function authenticateCall(
  call: Call,
  deps: Pick<StageDeps, "config" | "verifier" | "admission">,
): Promise<KeyedCall | Response> {
  let config: GatewayConfig;
  try {
    config = await deps.config.get();
  } catch (err) {
    return storeFailed(call, "configuration unavailable", err);
  }
  let auth: Authentication;
  try {
    auth = await authenticateRequest(call.request, deps.verifier, config);
  } catch (err) {
    return storeFailed(call, "key lookup failed", err);
  }
  if (auth.ok) return keyedCall(call, config, auth.caller);
  if (!auth.caller) return fail(call, auth.error);
  return refuse(keyedCall(call, config, auth.caller), auth.error, deps);
}

function storeFailed(call: Call, message: string, err: unknown): Response {
  log.error(message, { request_id: call.requestId, ...errorFields(err) });
  return fail(call, storeUnreachable(), RETRY_SOON);
}
