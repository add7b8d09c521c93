/**
 * The one pipeline every /api/v1 request goes through, in the contract's order of checks (docs/api-contract.md §1–§6):
 * route → credentials → body size → licensing → idempotency → handler → burst → quota (admitted and metered in one
 * statement) → answer. Each stage is a module under lib/api/stages/ with one shape, `(call, deps) => Promise<next call
 * | Response>`; a Response ends the call. The handler runs before the limits statement so that limits and metering
 * share one database round trip; handlers that touch account state run only after their call is admitted.
 */
import type { Database } from "../db/client";
import type { AnalyticsEngine } from "../engine/types";
import { appEnv } from "../env";
import { log } from "../log";
import { AdmissionBatcher, type BatchOptions } from "./admission";
import { requestUrl, servedAnswerOf } from "./served-facts";
import { ConfigCache } from "./config-cache";
import { KeyVerifier } from "./credentials";
import { LastUsedTracker } from "./last-used";
import { StreamHub } from "./stream/hub";
import type { RouteDef } from "./route";
import { createRouter } from "./router";
import { admitAndAnswer, admitThenExecute } from "./stages/admit";
import { authenticateCall } from "./stages/authenticate";
import type { Arrival, KeyedCall, StageDeps } from "./stages/call";
import { execute } from "./stages/execute";
import { claimIdempotency } from "./stages/idempotency";
import { checkLicensing } from "./stages/licensing";
import { readCallBody } from "./stages/read-body";
import { resolveRoute } from "./stages/resolve-route";
import { serveWithoutKey } from "./stages/without-key";

export interface PipelineDeps {
  database: Database;
  engine: AnalyticsEngine;
  routes: RouteDef[];
  keyCacheTtlMs: number;
  configCacheTtlMs: number;
  clock?: () => Date;
  /** Admission batching bounds; defaults from ADMISSION_BATCH_MAX / ADMISSION_QUEUE_MAX / ADMISSION_IN_FLIGHT. */
  admission?: BatchOptions;
}

/** The stages in the contract's order. */
export async function serve(arrival: Arrival, deps: StageDeps): Promise<Response> {
  const call = await resolveRoute(arrival, deps);
  if (call instanceof Response) return call;
  if (!call.route.authenticated) return serveWithoutKey(call, deps);

  const keyed = await authenticateCall(call, deps);
  if (keyed instanceof Response) return keyed;
  const read = await readCallBody(keyed, deps);
  if (read instanceof Response) return read;
  const licensed = await checkLicensing(read, deps);
  if (licensed instanceof Response) return licensed;
  const claimed = await claimIdempotency(licensed, deps);
  if (claimed instanceof Response) return claimed;
  return claimed.keep(() => executeAndAdmit(licensed, deps));
}

/** handler → burst → quota → answer; state-touching handlers run after burst and quota. */
async function executeAndAdmit(call: KeyedCall, deps: StageDeps): Promise<Response> {
  if (call.route.touchesAccountState) return admitThenExecute(call, deps);
  return admitAndAnswer(call, await execute(call, deps), deps);
}

export function createPipeline(deps: PipelineDeps) {
  const env = appEnv();
  const config = new ConfigCache(deps.database, deps.configCacheTtlMs);
  const lastUsed = new LastUsedTracker(deps.database);
  let hub: StreamHub | undefined;
  const verifier = new KeyVerifier(deps.database, deps.keyCacheTtlMs);
  const stageDeps: StageDeps = {
    database: deps.database,
    engine: deps.engine,
    verifier,
    config,
    admission: new AdmissionBatcher(
      deps.database.sql,
      deps.admission ?? {
        maxBatch: env.ADMISSION_BATCH_MAX,
        maxQueue: env.ADMISSION_QUEUE_MAX,
        maxInFlight: env.ADMISSION_IN_FLIGHT,
        gatherUs: env.ADMISSION_GATHER_US,
        deadlineMs: env.DB_DEADLINE_MS,
      },
    ),
    match: createRouter(deps.routes),
    clock: deps.clock ?? (() => new Date()),
    touch: (keyId, now) => lastUsed.touch(keyId, now.getTime()),
    streams: () => (hub ??= new StreamHub(deps.database.sql)),
  };

  async function handle(request: Request): Promise<Response> {
    const started = performance.now();
    const url = requestUrl(request);
    const served = await serve({ request, url, started }, stageDeps);
    // HEAD answers exactly like GET (status, headers, metering) without the body.
    const response =
      request.method === "HEAD" ? new Response(null, { status: served.status, headers: served.headers }) : served;
    if (log.enabled("info")) {
      log.info("request", {
        request_id: servedAnswerOf(served)?.headers["x-request-id"] ?? response.headers.get("x-request-id"),
        method: request.method,
        path: url.pathname,
        status: response.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
    return response;
  }

  return {
    handle,
    invalidateConfig: () => config.invalidate(),
    /** Ends the open streams; resolves once their leases are deleted (or the delete failed: they expire). */
    closeStreams: (): Promise<void> => hub?.close() ?? Promise.resolve(),
    /** Ends the key cache's subscription to this process's key-standing notices. */
    stopKeyNotices: () => verifier.close(),
    /** Writes the queued last_used_at stamps (on shutdown, before the pool closes). */
    flushLastUsed: () => lastUsed.flush(),
  };
}
