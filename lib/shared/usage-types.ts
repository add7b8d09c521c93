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
export interface KeyQuota {
  keyId: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  plan: string;
  familyA: QuotaGauge;
  familyB: QuotaGauge;
}

export interface UsageSummary {
  now: string;
  endpoints: UsageEndpoint[];
  keys: UsageKey[];
  /** 30 UTC days ending today, from usage_daily; 4xx there includes 429s (the daily aggregate does not split them). */
  daily: { days: string[]; cells: UsageCell[] };
  /** The last 60 UTC minutes, the current one included, from usage_events. */
  minutes: { minutes: string[]; cells: UsageCell[] };
  quotas: KeyQuota[];
  /**
   * 429 rate_limit_exceeded answers: in the last 60 minutes (as `minutes`) and today (UTC), with all calls in the same
   * windows.
   */
  rateLimited: { lastHour: number; lastHourCalls: number; today: number; todayCalls: number };
}

export interface RequestLogQuery {
  keyId?: string;
  endpointId?: string;
  statusClass?: StatusClass;
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
  path: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  requestId: string;
}

export interface RequestLogPage {
  entries: RequestLogEntry[];
  nextCursor: string | null;
  from: string;
  to: string;
}
