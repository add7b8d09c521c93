/**
 * Webhook delivery throughput: 10,000 events queued at once in the outbox for one webhook pointing at a loopback
 * receiver (answers 204 at once), delivered by one standalone server process, then by two. Reports deliveries per
 * second (first queued → last received) and the p50/p99 time from an event's creation to its first receipt.
 * Run alone: `npx tsx bench/webhooks.ts` (uses TEST_PG_URL like the rest of the benchmark).
 */
import { systemActor } from "../lib/domain/audit";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { registerWebhook } from "../lib/domain/webhooks";
import { seedReferenceData } from "../lib/domain/seed";
import { endpointCatalogue } from "../lib/api/routes";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";
import { startStandalone, type NextServer } from "./proc";

export interface WebhookBenchRun {
  processes: number;
  events: number;
  delivered: number;
  duplicates: number;
  deliveriesPerSec: number;
  p50Ms: number;
  p99Ms: number;
  seconds: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;

async function receiver() {
  const firstSeen = new Map<string, number>();
  let total = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      total++;
      const id = String(req.headers["webhook-id"]);
      if (!firstSeen.has(id)) firstSeen.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    firstSeen,
    total: () => total,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

async function runOnce(
  database: TestDatabase,
  processes: number,
  events: number,
  say: (m: string) => void,
): Promise<WebhookBenchRun> {
  const rx = await receiver();
  const servers: NextServer[] = [];
  try {
    const a = await accountWithKey(database.db, { plan: "pro", env: "live" });
    const w = await registerWebhook(
      database.db,
      { accountId: a.accountId, keyId: a.keyId, env: "live" },
      { url: rx.url, events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
      systemActor("bench"),
    );
    for (let i = 0; i < processes; i++) {
      servers.push(
        await startStandalone(
          database.url,
          { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "development", LOG_LEVEL: "warn" },
          [],
        ),
      );
    }
    say(`webhooks: ${processes} process(es) ready; queueing ${events} events`);
    const t0 = Date.now();
    // One statement queues every event and its delivery, as a burst of recomputes would.
    await database.sql`
      with e as (
        insert into webhook_events (id, env, type, symbol, dedupe_key, payload, created_at)
        select 'msg_' || substr(md5(${w.webhookId} || g::text), 1, 24), 'live', 'no_trade.decision_changed', 'AAPL', ${w.webhookId} || ':' || g,
               jsonb_build_object('type', 'no_trade.decision_changed', 'timestamp', clock_timestamp(), 'data', jsonb_build_object('symbol', 'AAPL', 'seq', g)), clock_timestamp()
        from generate_series(1, ${events}) g returning id, created_at)
      insert into webhook_deliveries (event_id, webhook_id, account_id, next_attempt_at, created_at)
      select e.id, ${w.webhookId}, ${a.accountId}, e.created_at, e.created_at from e`;
    const deadline = Date.now() + 120_000;
    while (rx.firstSeen.size < events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const created = new Map(
      (
        await database.sql<{ id: string; ms: number }[]>`
      select id, (extract(epoch from created_at) * 1000)::float8 as ms from webhook_events where dedupe_key like ${`${w.webhookId}:%`}`
      ).map((r) => [r.id, r.ms]),
    );
    const latencies = [...rx.firstSeen].map(([id, at]) => at - (created.get(id) ?? at)).sort((x, y) => x - y);
    const last = Math.max(...rx.firstSeen.values());
    const seconds = (last - t0) / 1000;
    return {
      processes,
      events,
      delivered: rx.firstSeen.size,
      duplicates: rx.total() - rx.firstSeen.size,
      deliveriesPerSec: rx.firstSeen.size / seconds,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      seconds,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await rx.close();
  }
}

export async function benchWebhooks(
  database: TestDatabase,
  say: (m: string) => void,
  events = 10_000,
): Promise<WebhookBenchRun[]> {
  const runs: WebhookBenchRun[] = [];
  for (const processes of [1, 2]) {
    const r = await runOnce(database, processes, events, say);
    say(
      `webhooks, ${processes} process(es): ${r.delivered}/${r.events} delivered in ${r.seconds.toFixed(1)} s, ${r.deliveriesPerSec.toFixed(0)} deliveries/s, ` +
        `event→delivery p50 ${r.p50Ms.toFixed(0)} ms, p99 ${r.p99Ms.toFixed(0)} ms, ${r.duplicates} duplicates`,
    );
    runs.push(r);
  }
  return runs;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await createTestDatabase("benchwh");
  try {
    await seedReferenceData(db.db, endpointCatalogue());
    await benchWebhooks(
      db,
      (m) => process.stdout.write(`[bench] ${m}\n`),
      Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000),
    );
  } finally {
    await db.drop();
  }
}
