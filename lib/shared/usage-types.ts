/** Shapes and constants of the usage views, importable by client components (no database code). */
export const STATUS_CLASSES = ["2xx", "429", "4xx", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export interface UsageEndpoint {
  id: string;
  method: string;
  path: string;
  family: "A" | "B";
}
export interface UsageKey {
  id: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  status: string;
}

/** One cell of a series: calls in one time bucket, for one route and one status class. */
export interface UsageCell {
  bucket: string;
  endpointId: string;
  family: "A" | "B";
  statusClass: StatusClass;
  calls: number;
}

export interface QuotaGauge {
  window: "month" | "day";
  used: number;
  limit: number;
  windowStart: string;
  windowEnd: string;
}
/**
 * The quota of one environment of the account (family A per calendar month, family B per UTC day): counted per account
 * and environment, shared by all of its keys of that environment (docs/api-contract.md §4).
 */
export interface EnvQuota {
  env: "test" | "live";
  /** The plan whose limits apply: test keys are always on Sandbox, live keys on the account's plan. */
  plan: string;
  familyA: QuotaGauge;
  familyB: QuotaGauge;
}

/** One key's calls in the current windows, and its share of its environment's quota. */
export interface KeyCalls {
  keyId: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  status: string;
  /** Calls today (UTC), any status. */
  today: number;
  /** Calls this calendar month (UTC), any status. */
  month: number;
  /** Quota units this key took in the current windows: family A this month, family B today (2xx answers only). */
  quotaA: number;
  quotaB: number;
}

export interface UsageSummary {
  now: string;
  endpoints: UsageEndpoint[];
  keys: UsageKey[];
  /** 30 UTC days ending today, from usage_daily; 4xx there includes 429s (the daily aggregate does not split them). */
  daily: { days: string[]; cells: UsageCell[] };
  /** The last 60 UTC minutes, the current one included, from usage_events. */
  minutes: { minutes: string[]; cells: UsageCell[] };
  /** One entry per environment the account has keys in (test first). */
  quotas: EnvQuota[];
  /** The account's keys with calls this month, and its other keys that still work, busiest first. */
  keyCalls: KeyCalls[];
  /**
   * 429 rate_limit_exceeded answers: in the last 60 minutes (as `minutes`) and today (UTC), with all calls in the same
   * windows.
   */
  rateLimited: { lastHour: number; lastHourCalls: number; today: number; todayCalls: number };
}

/** What a status filter may be: a class (2xx, 429, 4xx, 5xx) or one code from 100 to 599. */
export const STATUS_FILTER = /^(2xx|4xx|5xx|429|[1-5][0-9]{2})$/;
/** Error codes are lower-case snake case (the contract's `error.code`). */
export const ERROR_CODE_FILTER = /^[a-z][a-z0-9_]{0,63}$/;
/** A request id as the API echoes or makes one (X-Request-Id: up to 128 safe characters). */
export const REQUEST_ID_FILTER = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestLogQuery {
  keyId?: string;
  endpointId?: string;
  /** A status class (2xx, 429, 4xx, 5xx) or an exact status code ("404"). */
  status?: string;
  errorCode?: string;
  /** A ticker symbol, case-insensitive: calls whose path names it as a path segment or in symbol(s)=. */
  symbol?: string;
  /** One call's X-Request-Id (and a live stream's rows metered under it); without a range it looks back 31 days. */
  requestId?: string;
  from?: Date;
  to?: Date;
  cursor?: string;
  limit?: number;
}

export interface RequestLogEntry {
  id: string;
  time: string;
  keyId: string;
  keyPrefix: string;
  method: string;
  /** The route template, e.g. /api/v1/ticker/{symbol}/summary. */
  route: string;
  /** The requested path and query, secrets taken out; the route template on calls metered before paths were kept. */
  path: string;
  /** False on calls metered before paths were kept (migration 0014): `path` is then the route template. */
  pathKept: boolean;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  requestId: string;
  /** The answer's body in bytes (0 for HEAD); null on calls metered before sizes were kept (migration 0020). */
  responseBytes: number | null;
  /**
   * On an error answer, the body the caller got (rebuilt from the kept message: lib/api/logged-error.ts); null on 2xx
   * answers and on calls metered before messages were kept (migration 0028).
   */
  errorBody: unknown;
  /**
   * The rate-limit state right after the call, as its RateLimit headers said: the per-minute burst of the key and the
   * quota of the account's environment (month for family A routes, day for family B), each remaining of limit. Null when
   * the answer carried no rate-limit headers (a key refused before its limits) or on calls metered before 0020.
   */
  rateLimit: { burstRemaining: number; burstLimit: number; quotaRemaining: number; quotaLimit: number } | null;
}

export interface RequestLogPage {
  entries: RequestLogEntry[];
  nextCursor: string | null;
  from: string;
  to: string;
}
