/**
 * The admin overview: calls per route per day by family, top accounts, error and limit rates, the freshness of every
 * data source and the queues waiting for an admin.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { IMPORT_KINDS } from "../market/import/types";
import { currentSession, sessionClose } from "../market/demo/calendar";
import { type OverviewCalls, overviewCalls } from "./admin-overview-calls";

export { OVERVIEW_DAYS, REFUSED_STATUSES, shareOf } from "./admin-overview-calls";
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

/** The calls (one statement, one window: lib/domain/admin-overview-calls.ts), freshness and the admin queues. */
export interface Overview extends OverviewCalls {
  freshness: SourceFreshness[];
  pendingAccessRequests: number;
  pendingEndpoints: number;
}

export async function adminOverview(db: Db, now = new Date()): Promise<Overview> {
  const [calls, imports, ticks, pending] = await Promise.all([
    overviewCalls(db, now),
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
    ...calls,
    freshness,
    pendingAccessRequests: p?.requests ?? 0,
    pendingEndpoints: p?.endpoints ?? 0,
  };
}
