/**
 * The admin overview: calls per route per day by family, top accounts, error and limit rates, the freshness of every
 * data source and the queues waiting for an admin.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { IMPORT_KINDS } from "../market/import/types";
import { currentSession, sessionClose } from "../market/demo/calendar";

export const OVERVIEW_DAYS = 30;
/** An import older than this is marked stale (daily files are expected). */
export const IMPORT_STALE_MS = 3 * 86_400_000;
/** The demo simulator ticks every few seconds in its session; this far behind its clock means it stopped. */
export const DEMO_STALE_MS = 10 * 60_000;

/**
 * Whether the demo market's newest tick is stale at `now`: more than DEMO_STALE_MS behind the newest moment the demo
 * clock has data for (now in a session, the last session's close outside one: nothing ticks overnight or at weekends).
 */
export function demoTickStale(newest: Date | null, now: Date): boolean {
  if (!newest) return true;
  const expected = Math.min(now.getTime(), sessionClose(currentSession(now.getTime())));
  return expected - newest.getTime() > DEMO_STALE_MS;
}

export interface SourceFreshness {
  source: string;
  env: string;
  newestAt: string | null;
  stale: boolean;
}

export interface Overview {
  days: string[];
  /** Calls per day per route, by family. */
  routes: { endpointId: string; method: string; path: string; family: "A" | "B"; total: number; perDay: number[] }[];
  topAccounts: { accountId: string; name: string; owner: string | null; calls: number }[];
  /** Per day: calls and how many answered 401, 403, 429 and 5xx (metered calls). */
  rates: { day: string; calls: number; s401: number; s403: number; s429: number; s5xx: number }[];
  freshness: SourceFreshness[];
  pendingAccessRequests: number;
  pendingEndpoints: number;
}

const DAY = 86_400_000;

export async function adminOverview(db: Db, now = new Date()): Promise<Overview> {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const days = Array.from({ length: OVERVIEW_DAYS }, (_, i) =>
    new Date(today - (OVERVIEW_DAYS - 1 - i) * DAY).toISOString().slice(0, 10),
  );
  const from = days[0];
  const fromTime = new Date(`${from}T00:00:00Z`).toISOString();
  const [daily, top, rates, imports, ticks, pending] = await Promise.all([
    db.execute<{
      endpoint_id: string;
      method: string;
      path: string;
      family: "A" | "B";
      day: string;
      calls: number;
    }>(sql`
      select e.id as endpoint_id, e.method, e.path, e.family, d.day::text as day, coalesce(sum(d.calls), 0)::int as calls
      from endpoints e left join usage_daily d on d.endpoint_id = e.id and d.day >= ${from}::date
      group by e.id, e.method, e.path, e.family, d.day order by e.family, e.path, e.method`),
    db.execute<{ account_id: string; name: string; owner: string | null; calls: number }>(sql`
      select d.account_id, a.name, sum(d.calls)::int as calls,
        (select u.email from memberships m join users u on u.id = m.user_id where m.account_id = a.id and m.role = 'owner' order by m.created_at limit 1) as owner
      from usage_daily d join accounts a on a.id = d.account_id
      where d.day >= ${from}::date group by d.account_id, a.id, a.name order by calls desc, a.name limit 10`),
    db.execute<{ day: string; calls: number; s401: number; s403: number; s429: number; s5xx: number }>(sql`
      select (created_at at time zone 'UTC')::date::text as day, sum(units)::int as calls,
        count(*) filter (where status = 401)::int as s401, coalesce(sum(units) filter (where status = 403), 0)::int as s403,
        count(*) filter (where status = 429)::int as s429, count(*) filter (where status >= 500)::int as s5xx
      from usage_events where created_at >= ${fromTime}::timestamptz group by 1 order by 1`),
    db.execute<{ kind: string; env: string; newest: string }>(sql`
      select kind, env::text as env, max(created_at)::text as newest from import_runs group by kind, env`),
    db.execute<{ env: string; updated_at: string }>(
      sql`select env::text as env, updated_at::text from market_data_versions`,
    ),
    db.execute<{ requests: number; endpoints: number }>(sql`
      select (select count(*)::int from access_requests where status = 'pending') as requests,
        (select count(*)::int from endpoints e cross join (values ('live'), ('test')) v(env)
          where not exists (select 1 from endpoint_licensing l where l.endpoint_id = e.id and l.env::text = v.env and l.state = 'enabled')) as endpoints`),
  ]);
  const index = new Map(days.map((d, i) => [d, i]));
  const routes = new Map<string, Overview["routes"][number]>();
  for (const r of daily) {
    const row = routes.get(r.endpoint_id) ?? {
      endpointId: r.endpoint_id,
      method: r.method,
      path: r.path,
      family: r.family,
      total: 0,
      perDay: days.map(() => 0),
    };
    const i = r.day ? index.get(r.day) : undefined;
    if (i !== undefined) {
      row.perDay[i] += r.calls;
      row.total += r.calls;
    }
    routes.set(r.endpoint_id, row);
  }
  const rateByDay = new Map([...rates].map((r) => [r.day, r]));
  const freshness: SourceFreshness[] = [];
  for (const kind of IMPORT_KINDS) {
    for (const env of ["live", "demo"]) {
      const hit = [...imports].find((r) => r.kind === kind && r.env === env);
      if (!hit && env === "demo") continue; // the demo store is written by the simulator, imports there are optional
      const at = hit ? new Date(hit.newest) : null;
      freshness.push({
        source: `import:${kind}`,
        env,
        newestAt: at?.toISOString() ?? null,
        stale: !at || now.getTime() - at.getTime() > IMPORT_STALE_MS,
      });
    }
  }
  const demo = [...ticks].find((t) => t.env === "demo");
  const demoAt = demo ? new Date(demo.updated_at) : null;
  freshness.push({
    source: "demo:tick",
    env: "demo",
    newestAt: demoAt?.toISOString() ?? null,
    stale: demoTickStale(demoAt, now),
  });
  const [p] = [...pending];
  return {
    days,
    routes: [...routes.values()].sort((a, b) => a.family.localeCompare(b.family) || b.total - a.total),
    topAccounts: [...top].map((t) => ({ accountId: t.account_id, name: t.name, owner: t.owner, calls: t.calls })),
    rates: days.map((day) => {
      const r = rateByDay.get(day);
      return {
        day,
        calls: r?.calls ?? 0,
        s401: r?.s401 ?? 0,
        s403: r?.s403 ?? 0,
        s429: r?.s429 ?? 0,
        s5xx: r?.s5xx ?? 0,
      };
    }),
    freshness,
    pendingAccessRequests: p?.requests ?? 0,
    pendingEndpoints: p?.endpoints ?? 0,
  };
}
