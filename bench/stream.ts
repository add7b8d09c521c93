/**
 * The live stream's fan-out: BENCH_STREAMS (1,000) concurrent streams on one standalone server process, then a burst of
 * BENCH_STREAM_EVENTS (1,000) events stored in one statement, every stream subscribed to them (so 1,000 × 1,000
 * deliveries, each metered). Reports the p50/p99 time from the burst's commit to each event's arrival at its client, the
 * server's peak RSS, and how many arrived. Targets: p99 ≤ 1 s, RSS ≤ 400 MB.
 * Run alone: `npx tsx bench/stream.ts` (uses TEST_PG_URL like the rest of the benchmark).
 */
import { pathToFileURL } from "node:url";
import http from "node:http";
import { seedReferenceData } from "../lib/domain/seed";
import { endpointCatalogue } from "../lib/api/routes";
import { streamsPerKey } from "../lib/domain/plans-catalogue";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";
import { sampleMemory, startStandalone, type NextServer } from "./proc";

export interface StreamBenchRun {
  streams: number;
  opened: number;
  events: number;
  expected: number;
  delivered: number;
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  lastMs: number;
  peakRssMb: number;
}

const ID_LINE = Buffer.from("\nid: ");

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;

export async function benchStream(
  database: TestDatabase,
  say: (m: string) => void,
  streams = 1000,
  events = 1000,
): Promise<StreamBenchRun> {
  // Test keys stream the demo market under Sandbox's limits: raised so that quota and burst do not stop the burst.
  await database.sql`update plans set b_per_minute = 1000000000, b_per_day = 1000000000 where id = 'sandbox'`;
  const perKey = streamsPerKey("sandbox");
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(streams / perKey); i++) keys.push((await accountWithKey(database.db)).key);
  let server: NextServer | null = null;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const controller = new AbortController();
  try {
    server = await startStandalone(
      database.url,
      { LOG_LEVEL: "warn", KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" },
      // Profiling the server: e.g. BENCH_STREAM_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
      (process.env.BENCH_STREAM_NODE_ARGS ?? "").split(" ").filter(Boolean),
    );
    const memory = sampleMemory(server.child.pid as number);
    const arrivals: number[] = [];
    let t0 = 0;
    let opened = 0;
    const url = `${server.baseUrl}/api/v1/stream?events=flow.block&symbols=AAPL`;
    const readers = Array.from({ length: streams }, async (_, i) => {
      const res = await new Promise<http.IncomingMessage | null>((resolve) => {
        const req = http.get(url, {
          agent,
          headers: { authorization: `Bearer ${keys[Math.floor(i / perKey)]}` },
          signal: controller.signal,
        });
        req.on("response", resolve);
        req.on("error", () => resolve(null));
      });
      if (res?.statusCode !== 200) return void res?.resume();
      opened++;
      // Counts events on the raw bytes (each starts with "\nid: ", the stream opening with a comment line), so that
      // decoding and parsing in this client, on the same cores, weigh as little as they can on the server's figure.
      let tail = Buffer.alloc(0);
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          let n = 0;
          const head = Buffer.concat([tail, chunk.subarray(0, ID_LINE.length - 1)]);
          for (let at = head.indexOf(ID_LINE); at >= 0; at = head.indexOf(ID_LINE, at + 1)) if (at < tail.length) n++;
          for (let at = chunk.indexOf(ID_LINE); at >= 0; at = chunk.indexOf(ID_LINE, at + ID_LINE.length)) n++;
          tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (ID_LINE.length - 1))));
          if (n && t0) {
            const at = Date.now() - t0;
            for (let k = 0; k < n; k++) arrivals.push(at);
          }
        }
      } catch {
        // aborted at the end
      }
    });
    const openBy = Date.now() + 60_000;
    while (opened < streams && Date.now() < openBy) await new Promise((r) => setTimeout(r, 100));
    say(`stream: ${opened}/${streams} streams open; storing a burst of ${events} events`);
    await new Promise((r) => setTimeout(r, 1500)); // every stream is attached
    t0 = Date.now();
    await database.sql`
      insert into stream_events (env, kind, symbol, premium, dedupe_key, payload, created_at)
      select 'test', 'flow.block', 'AAPL', 250000, 'bench:' || g,
        jsonb_build_object('id', 'bench' || g, 'symbol', 'AAPL', 'type', 'block', 'premium', 250000, 'size', 500, 'time', clock_timestamp()),
        clock_timestamp()
      from generate_series(1, ${events}) g`;
    const expected = opened * events;
    const deadline = Date.now() + 180_000;
    while (arrivals.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const rss = memory.stop();
    const sorted = arrivals.slice().sort((a, b) => a - b);
    controller.abort();
    await Promise.allSettled(readers);
    return {
      streams,
      opened,
      events,
      expected,
      delivered: arrivals.length,
      firstMs: sorted[0] ?? NaN,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      lastMs: sorted[sorted.length - 1] ?? NaN,
      peakRssMb: Math.round(rss.peakHwmMb),
    };
  } finally {
    controller.abort();
    await server?.stop();
    agent.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await createTestDatabase("benchstream");
  try {
    await seedReferenceData(db.db, endpointCatalogue());
    const r = await benchStream(
      db,
      (m) => process.stdout.write(`[bench] ${m}\n`),
      Number(process.env.BENCH_STREAMS ?? 1000),
      Number(process.env.BENCH_STREAM_EVENTS ?? 1000),
    );
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    await db.drop();
  }
}
