/** Reads the caller's key from the three accepted headers and verifies it (docs/api-contract.md §2). */
import type postgres from "postgres";
import type { Database } from "../db/client";
import { parseKey } from "../keys/format";
import { onKeyStandingChanged } from "../keys/standing";
import { TtlCache } from "../util/ttl-cache";
import { delegatedKeyId } from "./delegation";
import { ApiError } from "./errors";
import { liveKeyRefusal } from "../contract/refusals";
import type { GatewayConfig, Plan } from "./config-cache";

export interface KeyRecord {
  id: string;
  accountId: string;
  env: "test" | "live";
  style: "standard" | "sk";
  status: "active" | "inactive" | "revoked";
  accountStatus: "active" | "inactive" | "deleted";
  planId: string;
  prefix: string;
  /** Epoch ms after which a rolled key is refused (compared on every call, so the cache never extends it). */
  expiresAt: number | null;
}

export interface Caller {
  keyId: string;
  accountId: string;
  env: "test" | "live";
  style: "standard" | "sk";
  keyPrefix: string;
  /**
   * The plan in force: a live key's is its account's; a test key's has Sandbox's limits and the account plan's features
   * (`mirrorTestPlan`, docs/api-contract.md §3).
   */
  plan: Plan;
}

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** Parsing a key (format, CRC, SHA-256) is pure: remember recent answers, bounded, so repeat callers skip it. */
const parsedKeys = new (class {
  private readonly map = new Map<string, ReturnType<typeof parseKey>>();
  get(key: string) {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const parsed = parseKey(key);
    if (this.map.size >= 10_000) this.map.delete(this.map.keys().next().value as string);
    if (key.length <= 64) this.map.set(key, parsed);
    return parsed;
  }
})();

/** Returns the one key the request carries; two different keys are a bad request. */
export function extractKey(headers: Headers): string | null {
  const found = new Set<string>();
  const authorization = headers.get("authorization");
  // An empty Authorization (or a bare "Bearer") carries no key, like an empty x-api-key.
  if (authorization !== null && !/^\s*(Bearer\s*)?$/i.test(authorization)) {
    const m = BEARER.exec(authorization);
    if (!m) throw new ApiError("invalid_api_key", "The Authorization header must be 'Bearer <API key>'.");
    found.add(m[1]);
  }
  for (const name of ["x-api-key", "x-service-key"]) {
    const value = headers.get(name);
    if (value !== null && value.trim() !== "") found.add(value.trim());
  }
  if (found.size > 1)
    throw new ApiError("invalid_request", "The request carries two different API keys; send exactly one.");
  return found.size === 1 ? [...found][0] : null;
}

/** A key row as the verifier reads it. */
function toRecord(r: postgres.Row): KeyRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    env: r.env,
    style: r.style,
    status: r.status,
    accountStatus: r.account_status,
    planId: r.plan_id,
    prefix: r.prefix,
    expiresAt: r.expires_at ? new Date(r.expires_at).getTime() : null,
  };
}

export class KeyVerifier {
  private readonly cache: TtlCache<string, KeyRecord | null>;
  /** Ends the subscription to this process's key-standing notices (lib/keys/standing.ts). */
  readonly close: () => void;

  constructor(
    private readonly database: Database,
    ttlMs: number,
  ) {
    this.cache = new TtlCache(ttlMs, 50_000, async (digest) => {
      const rows = await database.sql`
        select k.id, k.account_id, k.env, k.style, k.status, k.prefix, k.expires_at, a.status as account_status, a.plan_id
        from api_keys k join accounts a on a.id = k.account_id
        where k.digest = ${digest}`;
      return rows.length === 0 ? null : toRecord(rows[0]);
    });
    // A change committed through this process takes effect on its next call, not after the cache's lifetime.
    this.close = onKeyStandingChanged((change) =>
      this.cache.invalidateWhere((record) =>
        "keyId" in change ? record?.id === change.keyId : record?.accountId === change.accountId,
      ),
    );
  }

  lookup(digest: string): KeyRecord | null | Promise<KeyRecord | null> {
    return this.cache.get(digest);
  }

  /** A key by id, for the portal's delegated calls (lib/api/delegation.ts): read every time, never cached. */
  async lookupId(id: string): Promise<KeyRecord | null> {
    const rows = await this.database.sql`
      select k.id, k.account_id, k.env, k.style, k.status, k.prefix, k.expires_at, a.status as account_status, a.plan_id
      from api_keys k join accounts a on a.id = k.account_id
      where k.id = ${id}`;
    return rows.length === 0 ? null : toRecord(rows[0]);
  }
}

/**
 * What authentication needs of the key store: a digest's record, synchronous when cached; and a key's record by id for
 * the portal's delegated calls (absent where a caller never delegates: such a call is refused).
 */
export type KeyLookup = Pick<KeyVerifier, "lookup"> & Partial<Pick<KeyVerifier, "lookupId">>;

export type Authentication =
  | { ok: true; caller: Caller }
  /** `caller` is set when the key is known, so the refused call is still metered against it. */
  | { ok: false; error: ApiError; caller?: Caller };

/** Synchronous when the key's record is cached (the hot path), a promise only when it must be read. */
export function authenticate(
  headers: Headers,
  verifier: KeyLookup,
  config: GatewayConfig,
): Authentication | Promise<Authentication> {
  let key: string | null;
  try {
    key = extractKey(headers);
  } catch (err) {
    return { ok: false, error: err as ApiError };
  }
  if (key === null)
    return {
      ok: false,
      error: new ApiError(
        "missing_api_key",
        "No API key: send Authorization: Bearer <key>, x-api-key or X-Service-Key.",
      ),
    };
  const parsed = parsedKeys.get(key);
  if (!parsed) return { ok: false, error: new ApiError("invalid_api_key", "The API key is not valid.") };
  const record = verifier.lookup(parsed.digest);
  return record instanceof Promise ? record.then((r) => judge(r, config)) : judge(record, config);
}

/**
 * The request's caller: the key in its headers, or, for a call the portal built as one of the account's keys
 * (lib/api/delegation.ts), that key's record, judged alike. Used on arrival and by a stream's periodic recheck.
 */
export function authenticateRequest(
  request: Request,
  verifier: KeyLookup,
  config: GatewayConfig,
): Authentication | Promise<Authentication> {
  const keyId = delegatedKeyId(request);
  if (keyId === undefined) return authenticate(request.headers, verifier, config);
  return (verifier.lookupId?.(keyId) ?? Promise.resolve(null)).then((record) => judge(record, config));
}

function judge(record: KeyRecord | null, config: GatewayConfig): Authentication {
  // Deleting an account revokes its keys; its status alone answers the same, so no key of it ever works again.
  if (
    !record ||
    record.status === "revoked" ||
    record.accountStatus === "deleted" ||
    (record.expiresAt !== null && record.expiresAt <= Date.now())
  )
    return { ok: false, error: new ApiError("invalid_api_key", "The API key is not valid.") };
  const plan = (record.env === "test" ? config.testPlans : config.plans).get(record.planId);
  if (!plan) throw new Error(`plan ${record.planId} (${record.env}) missing from the catalogue`);
  const caller: Caller = {
    keyId: record.id,
    accountId: record.accountId,
    env: record.env,
    style: record.style,
    keyPrefix: record.prefix,
    plan,
  };
  if (record.status === "inactive" || record.accountStatus === "inactive") {
    return { ok: false, caller, error: new ApiError("inactive_key", "This API key or its account is deactivated.") };
  }
  if (record.env === "live" && !plan.liveKeyStyles.includes(record.style === "sk" ? "sk" : "live")) {
    const refusal = liveKeyRefusal(record.style === "sk" ? "sk" : "standard", plan.nameA);
    return { ok: false, caller, error: new ApiError("subscription_required", refusal) };
  }
  return { ok: true, caller };
}
