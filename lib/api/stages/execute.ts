/**
 * The handler: its inputs parsed by the route's schemas, its failure turned into the API's error. `recheck` gives a
 * stream the key and licensing checks again, as a new call with the same credentials would meet them.
 */
import { isStoreUnreachable } from "../../db/deadline";
import { DomainError } from "../../domain/errors";
import { EngineError } from "../../engine/errors";
import { errorFields, log } from "../../log";
import { licensingState } from "../config-cache";
import { authenticateRequest, type Caller } from "../credentials";
import { ApiError, fromDomainError, fromEngineError } from "../errors";
import { parseJsonBody, parseParams, parseQuery } from "../parse-input";
import { RETRY_SOON, storeUnreachable } from "./answer";
import type { Call, Outcome, StageDeps } from "./call";
import { pendingLicensing } from "./licensing";

type ExecuteDeps = Pick<StageDeps, "database" | "engine" | "config" | "verifier" | "streams">;

export async function execute(call: Call, deps: ExecuteDeps): Promise<Outcome> {
  const { route } = call;
  try {
    const result = await route.handler({
      params: parseParams(route, call.rawParams),
      query: parseQuery(route, call.url.searchParams),
      body: parseJsonBody(route, call.request, call.bodyText),
      caller: call.caller,
      view: call.view,
      engine: deps.engine,
      database: deps.database,
      requestId: call.requestId,
      now: call.now,
      accept: call.request.headers.get("accept"),
      headers: call.request.headers,
      recheck: () => recheck(call, deps),
      streams: deps.streams,
    });
    return { ok: true, result };
  } catch (err) {
    return { ok: false, error: handlerError(call, err) };
  }
}

/** A handler's failure as the API's error: its own, a domain rule's, or an unexpected one (logged, not shown). */
export function handlerError(call: Call, err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return fromDomainError(err);
  if (err instanceof EngineError) return fromEngineError(err);
  const fields = { request_id: call.requestId, endpoint: call.route.id, ...errorFields(err) };
  if (isStoreUnreachable(err)) {
    log.warn("handler's store wait failed", fields);
    return new ApiError("data_source_unavailable", storeUnreachable().message, RETRY_SOON);
  }
  log.error("handler failed", fields);
  return new ApiError("internal_error", `An unexpected error occurred. Quote request id ${call.requestId} to support.`);
}

async function recheck(call: Call, deps: Pick<StageDeps, "config" | "verifier">): Promise<Caller | ApiError> {
  const config = await deps.config.get();
  const auth = await authenticateRequest(call.request, deps.verifier, config);
  if (!auth.ok) return auth.error;
  if (licensingState(config, call.route.id, auth.caller.env) !== "enabled")
    return pendingLicensing(call.route, auth.caller.env);
  return auth.caller;
}
