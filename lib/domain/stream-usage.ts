/**
 * The live stream on the usage page (docs/api-contract.md "Live stream"): each key's streams open now, from the leases
 * every server process holds (stream_leases, migration 0022), and the stream's metered rows in usage_events (openings,
 * and each delivery round's events with their `units`, migration 0021).
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { STREAM_LEASE_TTL_MS } from "../contract/stream";
import { STREAM_RECENT_ROWS, type StreamUsage } from "../shared/stream-usage-types";

export * from "../shared/stream-usage-types";

const STREAM_ENDPOINT = "GET /api/v1/stream";
/** A delivery round's row: `<stream request id>:<first event id>+<n>`, and `:refused` for the quota's remainder. */
const EVENTS_ROW = String.raw`:[0-9]+\.[0-9]+\+[0-9]+(:refused)?$`;
const DAY_MS = 86_400_000;

export async function streamUsage(db: Db, accountId: string, now = new Date()): Promise<StreamUsage> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const since = new Date(Math.min(today.getTime(), now.getTime() - DAY_MS));
  const [keys, totals, recent] = await Promise.all([
    db.execute<{
      id: string;
      name: string;
      prefix: string;
      env: "test" | "live";
      stream_limit: number;
      open: number;
      oldest: string | null;
    }>(sql`
      select k.id, k.name, k.prefix, k.env, p.streams_per_key as stream_limit, count(l.id)::int as open,
        min(l.opened_at)::text as oldest
      from api_keys k join accounts a on a.id = k.account_id
      -- Streams per key is a feature: test keys have their account plan's, like live keys (docs/api-contract.md §3).
      join plans p on p.id = a.plan_id
      left join stream_leases l on l.key_id = k.id and l.expires_at > clock_timestamp()
      where k.account_id = ${accountId}::uuid and (k.status <> 'revoked' or l.id is not null)
      group by k.id, p.streams_per_key
      order by count(l.id) desc, k.created_at, k.id`),
    db.execute<{ openings: number; delivered: number; refused: number }>(sql`
      select coalesce(sum(units) filter (where request_id !~ ${EVENTS_ROW} and status = 200), 0)::int as openings,
        coalesce(sum(units) filter (where request_id ~ ${EVENTS_ROW} and status = 200), 0)::int as delivered,
        coalesce(sum(units) filter (where request_id ~ ${EVENTS_ROW} and status <> 200), 0)::int as refused
      from usage_events
      where account_id = ${accountId}::uuid and endpoint_id = ${STREAM_ENDPOINT}
        and created_at >= ${today.toISOString()}::timestamptz and created_at <= ${now.toISOString()}::timestamptz`),
    db.execute<{
      time: string;
      key_id: string;
      name: string;
      prefix: string;
      events: boolean;
      status: number;
      error_code: string | null;
      units: number;
      request_id: string;
    }>(sql`
      select e.created_at as time, e.key_id, k.name, k.prefix, e.request_id ~ ${EVENTS_ROW} as events, e.status,
        e.error_code, e.units, e.request_id
      from usage_events e join api_keys k on k.id = e.key_id
      where e.account_id = ${accountId}::uuid and e.endpoint_id = ${STREAM_ENDPOINT}
        and e.created_at >= ${since.toISOString()}::timestamptz and e.created_at <= ${now.toISOString()}::timestamptz
      order by e.created_at desc, e.id desc
      limit ${STREAM_RECENT_ROWS}`),
  ]);
  const iso = (t: string | Date) => new Date(t).toISOString();
  return {
    now: now.toISOString(),
    leaseTtlSeconds: STREAM_LEASE_TTL_MS / 1000,
    keys: [...keys].map((k) => ({
      keyId: k.id,
      name: k.name,
      prefix: k.prefix,
      env: k.env,
      open: k.open,
      limit: k.stream_limit,
      oldestOpenedAt: k.oldest ? iso(k.oldest) : null,
    })),
    today: totals[0] ?? { openings: 0, delivered: 0, refused: 0 },
    recent: [...recent].map((r) => ({
      time: iso(r.time),
      keyId: r.key_id,
      keyName: r.name,
      keyPrefix: r.prefix,
      kind: r.events ? "events" : "opening",
      status: r.status,
      errorCode: r.error_code,
      units: r.units,
      requestId: r.request_id,
    })),
  };
}
