/**
 * The portal usage page's data for an account with 1 million usage events: usageSummary and the first request-log page
 * (as the page asks for them, in parallel), timed after a warm-up; plus a second page by cursor and a filtered page.
 * Own throwaway database: events spread over the last 30 days, 20 % more for a second account, daily aggregates and
 * quota counters derived from the events as the gateway would have written them.
 */
import { sql } from "drizzle-orm";
import { endpointCatalogue } from "../lib/api/routes";
import { createKey } from "../lib/domain/keys";
import { systemActor } from "../lib/domain/audit";
import { seedReferenceData } from "../lib/domain/seed";
import { usageSummary } from "../lib/domain/usage";
import { requestLog } from "../lib/domain/request-log";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";

export interface UsageBenchResult {
  events: number;
  runs: number;
  pageP50Ms: number;
  pageP95Ms: number;
  pageMaxMs: number;
  summaryP95Ms: number;
  logP95Ms: number;
  nextPageP95Ms: number;
  filteredP95Ms: number;
  seedMs: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

async function seedEvents(db: TestDatabase, accountId: string, keyIds: string[], n: number, now: Date) {
  const endpoints = endpointCatalogue().map((e) => e.id);
  // Statuses: mostly 200, some 404/400/429/500; times uniform over 30 days, the newest at `now`.
  await db.db.execute(sql`
    insert into usage_events (request_id, key_id, account_id, endpoint_id, status, error_code, latency_ms, created_at)
    select 'req_bench_' || g, (string_to_array(${keyIds.join(",")}, ','))[1 + g % ${keyIds.length}], ${accountId}::uuid,
      (string_to_array(${endpoints.join(",")}, ','))[1 + (g * 7) % ${endpoints.length}],
      case when g % 50 = 0 then 429 when g % 37 = 0 then 404 when g % 101 = 0 then 500 else 200 end,
      case when g % 50 = 0 then 'rate_limit_exceeded' when g % 37 = 0 then 'symbol_not_found' when g % 101 = 0 then 'internal_error' end,
      1 + (g % 40), ${now.toISOString()}::timestamptz - (g * (30 * 86400.0 / ${n})) * interval '1 second'
    from generate_series(1, ${n}) g`);
}

export async function benchUsage(
  eventCount = 1_000_000,
  runs = 30,
  say: (m: string) => void = () => {},
): Promise<UsageBenchResult> {
  const db = await createTestDatabase("benchusage");
  try {
    await seedReferenceData(db.db, endpointCatalogue());
    const target = await accountWithKey(db.db);
    const keyIds = [target.keyId];
    for (let i = 0; i < 3; i++)
      keyIds.push(
        (await createKey(db.db, { accountId: target.accountId, env: "test", name: `k${i}` }, systemActor("bench"))).id,
      );
    const other = await accountWithKey(db.db);
    const now = new Date();
    const t0 = performance.now();
    await seedEvents(db, target.accountId, keyIds, eventCount, now);
    await seedEvents(db, other.accountId, [other.keyId], Math.round(eventCount / 5), now);
    await db.db.execute(sql`
      insert into usage_daily (key_id, account_id, day, endpoint_id, calls, ok_calls, client_errors, server_errors, latency_ms_sum)
      select key_id, account_id, (created_at at time zone 'UTC')::date, endpoint_id, count(*), count(*) filter (where status between 200 and 299),
        count(*) filter (where status between 400 and 499), count(*) filter (where status >= 500), sum(latency_ms)
      from usage_events group by 1, 2, 3, 4`);
    await db.db.execute(sql`
      insert into usage_counters (key_id, bucket, window_start, count)
      select e.key_id, b.bucket, b.start, count(*) from usage_events e
      cross join (values ('A:month', date_trunc('month', ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC'),
        ('B:day', date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC') at time zone 'UTC')) as b(bucket, start)
      where e.status between 200 and 299 and e.created_at >= b.start group by 1, 2, 3`);
    await db.sql`analyze`;
    const seedMs = performance.now() - t0;
    say(
      `usage: ${eventCount} events for one account (+${Math.round(eventCount / 5)} for another) seeded in ${(seedMs / 1000).toFixed(1)} s`,
    );

    const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
      const s = performance.now();
      const r = await f();
      return [r, performance.now() - s];
    };
    const page: number[] = [],
      summary: number[] = [],
      log: number[] = [],
      next: number[] = [],
      filtered: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const at = new Date();
      const [[, s], [first, l], p] = await (async () => {
        const start = performance.now();
        const both = await Promise.all([
          timed(() => usageSummary(db.db, target.accountId, at)),
          timed(() => requestLog(db.db, target.accountId, { limit: 25 }, at)),
        ]);
        return [...both, performance.now() - start] as const;
      })();
      const [, n] = await timed(() =>
        requestLog(db.db, target.accountId, { limit: 25, cursor: first.nextCursor! }, at),
      );
      const [, f] = await timed(() =>
        requestLog(db.db, target.accountId, { limit: 25, status: "5xx", keyId: keyIds[1] }, at),
      );
      if (i < 3) continue; // warm-up
      page.push(p);
      summary.push(s);
      log.push(l);
      next.push(n);
      filtered.push(f);
    }
    return {
      events: eventCount,
      runs,
      seedMs: Math.round(seedMs),
      pageP50Ms: +quantile(page, 0.5).toFixed(1),
      pageP95Ms: +quantile(page, 0.95).toFixed(1),
      pageMaxMs: +Math.max(...page).toFixed(1),
      summaryP95Ms: +quantile(summary, 0.95).toFixed(1),
      logP95Ms: +quantile(log, 0.95).toFixed(1),
      nextPageP95Ms: +quantile(next, 0.95).toFixed(1),
      filteredP95Ms: +quantile(filtered, 0.95).toFixed(1),
    };
  } finally {
    await db.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchUsage(Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000), 30, (m) => console.log(m)).then((r) => {
    console.log(JSON.stringify(r, null, 2));
    process.exit(0);
  });
}
