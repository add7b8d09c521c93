/**
 * The live stream's fan-out: BENCH_STREAMS (1,000) concurrent streams on one standalone server process, then a burst of
 * BENCH_STREAM_EVENTS (1,000) events stored in one transaction as the producer stores them (with its notification),
 * every stream subscribed to them (so 1,000 × 1,000 deliveries, each metered). Reports the p50/p99 time from the burst's
 * commit to each event's arrival at its client, the server's peak RSS, and how many arrived. Targets: p99 ≤ 1 s,
 * RSS ≤ 400 MB. The streams are read by BENCH_STREAM_CLIENTS (1) client processes (bench/stream-client.ts), apart from
 * the process that runs the benchmark.
 * Run alone: `npx tsx bench/stream.ts` (uses TEST_PG_URL like the rest of the benchmark).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { seedReferenceData } from "../lib/domain/seed";
import { endpointCatalogue } from "../lib/api/routes";
import { streamsPerKey } from "../lib/domain/plans-catalogue";
import { notifyStreamEvents } from "../lib/webhooks/stream-producer";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";
import { sampleMemory, startStandalone, type NextServer } from "./proc";
import type { ClientReport, ClientStart } from "./stream-client";

export interface StreamBenchRun {
  streams: number;
  clients: number;
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

/** The latency (ms after t0) below which a share q of the events arrived, from arrival counts in time order. */
function quantile(arrivals: [number, number][], total: number, t0: number, q: number): number {
  if (!total) return Number.NaN;
  const rank = Math.min(total - 1, Math.floor(q * total));
  let seen = 0;
  for (const [at, n] of arrivals) {
    seen += n;
    if (seen > rank) return Math.max(0, at - t0);
  }
  return Number.NaN;
}

/** A client process and the messages it sent so far. */
function client(start: ClientStart) {
  const child: ChildProcess = fork(fileURLToPath(new URL("./stream-client.ts", import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let opened: number | null = null;
  let done = false;
  let report: ((r: ClientReport) => void) | null = null;
  child.on("message", (m: unknown) => {
    if (m === "done") done = true;
    else if (m && typeof m === "object" && "arrivals" in m) report?.(m as ClientReport);
    else if (m && typeof m === "object" && "opened" in m) opened = (m as { opened: number }).opened;
  });
  child.send({ start });
  return {
    opened: () => opened,
    done: () => done,
    report: () =>
      new Promise<ClientReport>((resolve, reject) => {
        report = resolve;
        child.once("exit", () => reject(new Error("stream client exited without a report")));
        child.send("report");
      }),
    kill: () => child.exitCode === null && child.kill(),
  };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchStream(
  database: TestDatabase,
  say: (m: string) => void,
  streams = 1000,
  events = 1000,
  clients = Number(process.env.BENCH_STREAM_CLIENTS ?? 1),
): Promise<StreamBenchRun> {
  // Test keys stream the demo market under Sandbox's limits: raised so that quota and burst do not stop the burst.
  await database.sql`update plans set b_per_minute = 1000000000, b_per_day = 1000000000 where id = 'sandbox'`;
  const perKey = streamsPerKey("sandbox");
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(streams / perKey); i++) keys.push((await accountWithKey(database.db)).key);
  let server: NextServer | null = null;
  const readers: ReturnType<typeof client>[] = [];
  try {
    server = await startStandalone(
      database.url,
      { LOG_LEVEL: "warn", KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" },
      // Profiling the server: e.g. BENCH_STREAM_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
      (process.env.BENCH_STREAM_NODE_ARGS ?? "").split(" ").filter(Boolean),
    );
    const memory = sampleMemory(server.child.pid as number);
    const url = `${server.baseUrl}/api/v1/stream?events=flow.block&symbols=AAPL`;
    const streamKeys = Array.from({ length: streams }, (_, i) => keys[Math.floor(i / perKey)]);
    const share = Math.ceil(streams / clients);
    for (let c = 0; c < clients; c++)
      readers.push(client({ url, keys: streamKeys.slice(c * share, (c + 1) * share), events }));
    const openBy = Date.now() + 60_000;
    while (readers.some((r) => r.opened() === null) && Date.now() < openBy) await wait(100);
    const opened = readers.reduce((n, r) => n + (r.opened() ?? 0), 0);
    say(
      `stream: ${opened}/${streams} streams open (${clients} client process(es)); storing a burst of ${events} events`,
    );
    await wait(1500); // every stream is attached
    let t0 = 0;
    // As the producer stores a data version's rows: one transaction, its notification delivered at the commit. The
    // latency is counted from the moment COMMIT is sent.
    await database.sql.begin(async (tx) => {
      await tx`
        insert into stream_events (env, kind, symbol, premium, dedupe_key, payload, created_at)
        select 'test', 'flow.block', 'AAPL', 250000, 'bench:' || g,
          jsonb_build_object('id', 'bench' || g, 'symbol', 'AAPL', 'type', 'block', 'premium', 250000, 'size', 500, 'time', clock_timestamp()),
          clock_timestamp()
        from generate_series(1, ${events}) g`;
      await notifyStreamEvents(tx, "test");
      t0 = Date.now();
    });
    const deadline = Date.now() + 180_000;
    while (readers.some((r) => !r.done()) && Date.now() < deadline) await wait(50);
    const rss = memory.stop();
    const reports = await Promise.all(readers.map((r) => r.report()));
    const arrivals = reports.flatMap((r) => r.arrivals).sort((a, b) => a[0] - b[0]);
    const delivered = reports.reduce((n, r) => n + r.delivered, 0);
    return {
      streams,
      clients,
      opened,
      events,
      expected: opened * events,
      delivered,
      firstMs: quantile(arrivals, delivered, t0, 0),
      p50Ms: quantile(arrivals, delivered, t0, 0.5),
      p99Ms: quantile(arrivals, delivered, t0, 0.99),
      lastMs: quantile(arrivals, delivered, t0, 1),
      peakRssMb: Math.round(rss.peakHwmMb),
    };
  } finally {
    for (const r of readers) r.kill();
    await server?.stop();
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
