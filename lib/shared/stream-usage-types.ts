/** The usage page's live-stream view (GET /api/portal/usage/stream), importable by client components. */

/** One key's live streams open now, across every server process (stream_leases), against its plan's limit. */
export interface StreamKeyLeases {
  keyId: string;
  name: string;
  prefix: string;
  env: "test" | "live";
  open: number;
  limit: number;
  /** When the oldest of its open streams opened (ISO 8601), null when none is open. */
  oldestOpenedAt: string | null;
}

/** One metered row of GET /api/v1/stream: an opening call, or one delivery round's events (`units` of them). */
export interface StreamMeteredRow {
  time: string;
  keyId: string;
  keyName: string;
  keyPrefix: string;
  kind: "opening" | "events";
  status: number;
  errorCode: string | null;
  units: number;
  requestId: string;
}

export interface StreamUsage {
  now: string;
  /** A stream of a server process that died stops counting against its key's limit within this many seconds. */
  leaseTtlSeconds: number;
  /** The account's keys that are not revoked, those with open streams first. */
  keys: StreamKeyLeases[];
  /** Today (UTC): streams opened (2xx openings), events delivered (each one call of the quota), events refused by the quota. */
  today: { openings: number; delivered: number; refused: number };
  /** The last STREAM_RECENT_ROWS metered rows of the last 24 hours, newest first. */
  recent: StreamMeteredRow[];
}

export const STREAM_RECENT_ROWS = 20;
