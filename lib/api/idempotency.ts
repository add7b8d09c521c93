/**
 * Idempotency-Key for POST and PATCH (docs/api-contract.md "Idempotent requests"): the first answer for an
 * (account, calling API key, key) is kept for 24 hours and replayed for a retry of the same request. A claim row is taken atomically
 * (INSERT … ON CONFLICT) before the handler runs, so two retries on any number of processes cannot both run it.
 */
import { createHash } from "node:crypto";
import type postgres from "postgres";
import { errorFields, log } from "../log";
import { ApiError } from "./errors";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** Methods whose calls may carry a key; every other method never reaches this module (the GET hot path is untouched). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["POST", "PATCH"]);
/** Headers of the first answer that describe its body and are replayed with it (rate-limit headers are the retry's own). */
const REPLAYED_HEADERS = ["content-type", "cache-control", "location", "x-request-id"];
/** 1–255 printable ASCII characters (space to tilde). */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/**
 * The header's value; null when absent; an invalid_request naming the header when malformed. With `apiKeyId` (the
 * pipeline always passes the calling key's id) the stored key is scoped to that API key: a test key never gets a live
 * key's answer, nor any key another key's (a webhook's signingSecret is only ever replayed to the key that created it).
 */
export function idempotencyKeyOf(headers: Headers, apiKeyId?: string): string | null | ApiError {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_FORMAT.test(key))
    return new ApiError("invalid_request", "The Idempotency-Key header must be 1 to 255 printable ASCII characters.");
  return apiKeyId === undefined ? key : `${apiKeyId}\n${key}`;
}

/** What a retry must repeat: method, path and body. */
export const requestDigest = (method: string, path: string, body: string) =>
  createHash("sha256").update(`${method}\n${path}\n`).update(body).digest("hex");

/**
 * Only answers that a retry would get again are kept: 2xx, and 4xx except those that depend on time or on the limits
 * (401, 403, 408, 409, 425, 429). 5xx, 429 and 503 are never kept, so a retry after a transient failure runs again.
 */
export const storable = (status: number) =>
  (status >= 200 && status < 300) || (status >= 400 && status < 500 && !TRANSIENT_4XX.has(status));
const TRANSIENT_4XX = new Set([401, 403, 408, 409, 425, 429]);

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: "claimed" }
  | { kind: "replay"; answer: StoredAnswer }
  | { kind: "reused" } // the key was first used with another request
  | { kind: "in_use" }; // the first call with this key is still running

/**
 * Claims (account, key) for this request, or says why not. An expired row (older than 24 hours) is taken over in the
 * same statement (lazy deletion); the daily sweep removes the rest.
 */
export async function claim(
  sql: postgres.Sql,
  accountId: string,
  key: string,
  digest: string,
  now: Date,
): Promise<Claim> {
  const at = now.toISOString();
  const claimed = await sql`
    insert into idempotency_keys as k (account_id, key, request_digest, state, created_at)
    values (${accountId}::uuid, ${key}, ${digest}, 'in_progress', ${at}::timestamptz)
    on conflict (account_id, key) do update set request_digest = excluded.request_digest, state = 'in_progress',
      response_status = null, response_headers = null, response_body = null, created_at = excluded.created_at
      where k.created_at <= excluded.created_at - interval '24 hours'
    returning 1`;
  if (claimed.length) return { kind: "claimed" };
  const rows = await sql<
    {
      request_digest: string;
      state: string;
      response_status: number | null;
      response_headers: unknown;
      response_body: string | null;
    }[]
  >`select request_digest, state, response_status, response_headers, response_body from idempotency_keys
    where account_id = ${accountId}::uuid and key = ${key}`;
  const row = rows[0];
  if (!row) return { kind: "in_use" }; // released by the first call an instant ago: the retry may try again
  if (row.request_digest !== digest) return { kind: "reused" };
  if (row.state !== "completed" || row.response_status === null) return { kind: "in_use" };
  const headers = (
    typeof row.response_headers === "string" ? JSON.parse(row.response_headers) : row.response_headers
  ) as Record<string, string> | null;
  return {
    kind: "replay",
    answer: { status: row.response_status, headers: headers ?? {}, body: row.response_body ?? "" },
  };
}

/** Keeps the answer of a claimed call, or releases the claim when the answer is not one a retry would get again. */
export async function settleClaim(
  sql: postgres.Sql,
  accountId: string,
  key: string,
  response: Response,
): Promise<Response> {
  const body = await response.text();
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  try {
    if (storable(response.status))
      await sql`update idempotency_keys set state = 'completed', response_status = ${response.status},
        response_headers = ${JSON.stringify(headers)}::jsonb, response_body = ${body}
        where account_id = ${accountId}::uuid and key = ${key} and state = 'in_progress'`;
    else await releaseClaim(sql, accountId, key);
  } catch (err) {
    // The call's effects stand; its claim stays in progress (409 to retries) until it expires: never run twice.
    log.error("idempotency key not settled", { key_account: accountId, ...errorFields(err) });
  }
  return new Response(body, { status: response.status, headers: response.headers });
}

export async function releaseClaim(sql: postgres.Sql, accountId: string, key: string): Promise<void> {
  await sql`delete from idempotency_keys where account_id = ${accountId}::uuid and key = ${key} and state = 'in_progress'`;
}

/** Deletes keys past their 24 hours; answers how many. */
export async function deleteExpiredKeys(sql: postgres.Sql, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const result = await sql`delete from idempotency_keys where created_at <= ${cutoff}::timestamptz`;
  return result.count;
}

/** Runs the sweep at start and then daily in every process (deleting is safe to repeat); answers a stop function. */
export function startIdempotencyExpiry(sql: postgres.Sql): () => void {
  const pass = () =>
    deleteExpiredKeys(sql).then(
      (n) => n > 0 && log.info("idempotency keys expired", { deleted: n }),
      (err) => log.error("idempotency key expiry failed", errorFields(err)),
    );
  void pass();
  const timer = setInterval(pass, 86_400_000);
  timer.unref();
  return () => clearInterval(timer);
}
