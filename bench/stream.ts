/**
 * The live stream's fan-out: BENCH_STREAMS (1,000) concurrent streams on one standalone server process, then
 * BENCH_STREAM_BURSTS (3) bursts of BENCH_STREAM_EVENTS (1,000) events, each stored in one transaction as the producer
 * stores them (with its notification), every stream subscribed to them (so 1,000 × 1,000 deliveries a burst, each
 * metered). Reports, per burst and as the median over the bursts, the p50/p99 time from the burst's COMMIT to each
 * event's arrival at its client, the server's peak RSS, and how many arrived. Targets: p99 ≤ 1 s, RSS ≤ 400 MB.
 * The streams are read by BENCH_STREAM_CLIENTS (1) client processes (bench/stream-client.ts), apart from the process
 * that runs the benchmark. The same clients first read the same bursts from bench/stream-floor.ts, a bare server that
 * only writes the bytes: the reference the product's p99 is a ratio to (as the constant route is for requests).
 * Run alone: `npx tsx bench/stream.ts` (uses TEST_PG_URL like the rest of the benchmark).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { seedReferenceData } from "../lib/domain/seed";
import { endpointCatalogue } from "../lib/api/routes";
import { streamsPerKey } from "../lib/domain/plans-catalogue";
import { notifyStreamEvents } from "../lib/engine/stream-events";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase, type TestDatabase } from "../fixtures/test-db";
import { cpuMs } from "./cpu";
import { sampleMemory, startStandalone, type NextServer } from "./proc";
import type { ClientReport, ClientStart } from "./stream-client";

export interface BurstResult {
  delivered: number;
  /** CPU time (ms) from the burst's start until a second after its last arrival (metering included). */
  cpuMs: { server: number; postgres: number; clients: number };
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  lastMs: number;
}

export interface StreamBenchRun {
  streams: number;
  clients: number;
  opened: number;
  events: number;
  /** Deliveries expected per burst (open streams × events). */
  expected: number;
  /** Per burst, in order. */
  bursts: BurstResult[];
  /** The fewest events delivered in a burst. */
  delivered: number;
  /** Medians over the bursts. */
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  lastMs: number;
  /** Bytes each event took on the wire (SSE, chunked), product and reference. */
  bytesPerEvent: number;
  floor: {
    opened: number;
    bytesPerEvent: number;
    bursts: BurstResult[];
    p50Ms: number;
    p99Ms: number;
    cpuMs: BurstResult["cpuMs"];
  };
  /** Median CPU time of a burst, product and reference (`floor.cpuMs`). */
  cpuMs: BurstResult["cpuMs"];
  /** p99 / the reference's p99 (medians over the bursts). */
  p99Ratio: number;
  peakRssMb: number;
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : Number.NaN;
};

/** Median CPU time a burst took, per part. */
const cpuOf = (bursts: BurstResult[]): BurstResult["cpuMs"] => ({
  server: median(bursts.map((b) => b.cpuMs.server)),
  postgres: median(bursts.map((b) => b.cpuMs.postgres)),
  clients: median(bursts.map((b) => b.cpuMs.clients)),
});
const cpuText = (c: BurstResult["cpuMs"]) =>
  `CPU a burst: server ${c.server} ms, postgres ${c.postgres} ms, clients ${c.clients} ms`;

/** The latency (ms after t0) by which a share q of the arrivals had come (arrivals: [epoch ms, count] in time order). */
function quantile(arrivals: [number, number][], t0: number, q: number): number {
  const total = arrivals.reduce((n, a) => n + a[1], 0);
  if (!total) return Number.NaN;
  const rank = Math.min(total - 1, Math.floor(q * total));
  let seen = 0;
  for (const [at, n] of arrivals) {
    seen += n;
    if (seen > rank) return Math.max(0, at - t0);
  }
  return Number.NaN;
}

function burstResult(arrivals: [number, number][], t0: number, cpu: BurstResult["cpuMs"]): BurstResult {
  return {
    cpuMs: cpu,
    delivered: arrivals.reduce((n, a) => n + a[1], 0),
    firstMs: quantile(arrivals, t0, 0),
    p50Ms: quantile(arrivals, t0, 0.5),
    p99Ms: quantile(arrivals, t0, 0.99),
    lastMs: quantile(arrivals, t0, 1),
  };
}

/** A forked helper process and the messages it sent so far. */
function child(file: string) {
  const proc: ChildProcess = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const messages: unknown[] = [];
  proc.on("message", (m: unknown) => messages.push(m));
  const find = <T>(test: (m: unknown) => boolean) => messages.find(test) as T | undefined;
  return {
    pid: proc.pid as number,
    send: (m: unknown) => proc.send(m as never),
    find,
    count: (m: unknown) => messages.filter((x) => x === m).length,
    next: <T>(test: (m: unknown) => boolean, ms = 60_000) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer from ${file}`)), ms);
        const look = () => {
          const m = find<T>(test);
          if (m === undefined) return;
          clearTimeout(timer);
          proc.off("message", look);
          resolve(m);
        };
        proc.on("message", look);
        look();
      }),
    /** Lets it exit by itself (so that a --cpu-prof profile is written) for up to 3 s, then ends it. */
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const timer = setTimeout(() => proc.kill(), 3000);
      await new Promise((resolve) => proc.once("exit", resolve));
      clearTimeout(timer);
    },
  };
}

/**
 * A burst's flow.block events on AAPL: by default the fields the first version of this benchmark stored (id, symbol,
 * type, premium, size, time: about 585 bytes an event on the wire); BENCH_STREAM_PAYLOAD=full gives each one every field
 * of an options-flow event as the engine stores it (contract, prices, side, sentiment…: about 790 bytes).
 */
function flowEvents(n: number, burst: string): Record<string, unknown>[] {
  const full = process.env.BENCH_STREAM_PAYLOAD === "full";
  return Array.from({ length: n }, (_, i) => {
    const e = { id: `bench${burst}:${i}`, symbol: "AAPL", type: "block", premium: 250000, size: 500 };
    const time = new Date().toISOString();
    if (!full) return { ...e, time };
    return {
      ...e,
      time,
      contract: { expiry: "2026-12-18", strike: 232.5, right: "call" },
      avgPrice: 5,
      side: "ask",
      sentiment: "bullish",
      exchangeCount: 1,
      legs: 1,
      unusual: false,
      volumeOiRatio: 0.42,
      moneyness: "otm",
    };
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const has = (key: string) => (m: unknown) => m !== null && typeof m === "object" && key in m;

/**
 * Opens the streams from `clients` client processes, then for each burst: `trigger` (answers t0), and waits until
 * every open stream has every event (at most 3 minutes). Answers per-burst results (with the CPU time the server
 * process, the database's backends and the clients used) and the bytes per event.
 */
async function measure(
  server: { pid: number; database?: string },
  url: string,
  keys: string[],
  clients: number,
  bursts: number,
  events: number,
  trigger: () => Promise<number>,
): Promise<{ opened: number; bursts: BurstResult[]; bytesPerEvent: number }> {
  const share = Math.ceil(keys.length / clients);
  const readers = Array.from({ length: clients }, (_, c) => {
    const r = child("./stream-client.ts");
    r.send({ start: { url, keys: keys.slice(c * share, (c + 1) * share) } satisfies ClientStart });
    return r;
  });
  try {
    const answers = await Promise.all(readers.map((r) => r.next<{ opened: number }>(has("opened"))));
    const opened = answers.reduce((n, a) => n + a.opened, 0);
    await wait(1500); // every stream is attached
    const t0s: number[] = [];
    const cpu: BurstResult["cpuMs"][] = [];
    const used = () => {
      const u = cpuMs([server.pid, ...readers.map((r) => r.pid)], server.database);
      return {
        server: Math.round(u.trees[0]),
        postgres: Math.round(u.postgres),
        clients: Math.round(u.trees.slice(1).reduce((a, b) => a + b, 0)),
      };
    };
    for (let b = 1; b <= bursts; b++) {
      for (const r of readers) r.send({ expect: b * events });
      const before = used();
      t0s.push(await trigger());
      const deadline = Date.now() + 180_000;
      while (readers.some((r) => r.count("done") < b) && Date.now() < deadline) await wait(20);
      await wait(1000);
      const after = used();
      cpu.push({
        server: after.server - before.server,
        postgres: after.postgres - before.postgres,
        clients: after.clients - before.clients,
      });
    }
    const reports = await Promise.all(
      readers.map((r) => {
        r.send("report");
        return r.next<ClientReport>(has("arrivals"));
      }),
    );
    const arrivals = reports.flatMap((r) => r.arrivals).sort((a, b) => a[0] - b[0]);
    const delivered = reports.reduce((n, r) => n + r.delivered, 0);
    const bytes = reports.reduce((n, r) => n + r.bytes, 0);
    return {
      opened,
      bursts: t0s.map((t0, i) =>
        burstResult(
          arrivals.filter(([at]) => at >= t0 && (i + 1 === t0s.length || at < t0s[i + 1])),
          t0,
          cpu[i],
        ),
      ),
      bytesPerEvent: delivered ? Math.round(bytes / delivered) : Number.NaN,
    };
  } finally {
    await Promise.all(readers.map((r) => r.stop()));
  }
}

export async function benchStream(
  database: TestDatabase,
  say: (m: string) => void,
  streams = Number(process.env.BENCH_STREAMS ?? 1000),
  events = Number(process.env.BENCH_STREAM_EVENTS ?? 1000),
  clients = Number(process.env.BENCH_STREAM_CLIENTS ?? 1),
  bursts = Number(process.env.BENCH_STREAM_BURSTS ?? 3),
): Promise<StreamBenchRun> {
  // The reference first: the same clients and bytes from a server that only writes them.
  const floorServer = child("./stream-floor.ts");
  let floorBursts = 0;
  let floor: Awaited<ReturnType<typeof measure>>;
  try {
    const { port } = await floorServer.next<{ port: number }>(has("port"));
    floor = await measure(
      { pid: floorServer.pid },
      `http://127.0.0.1:${port}/`,
      Array(streams).fill(""),
      clients,
      bursts,
      events,
      async () => {
        const t0 = Date.now();
        floorServer.send({ burst: flowEvents(events, `${++floorBursts}`) });
        return t0;
      },
    );
  } finally {
    floorServer.send("stop");
    await floorServer.stop();
  }
  const floorP99 = median(floor.bursts.map((b) => b.p99Ms));
  say(
    `stream reference (bare server, same bytes): p99 ${floor.bursts.map((b) => b.p99Ms).join(" / ")} ms, ${floor.bytesPerEvent} B an event; ${cpuText(cpuOf(floor.bursts))}`,
  );

  // Test keys stream the demo market under Sandbox's limits: raised so that quota and burst do not stop the burst.
  await database.sql`update plans set b_per_minute = 1000000000, b_per_day = 1000000000 where id = 'sandbox'`;
  const perKey = streamsPerKey("sandbox");
  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(streams / perKey); i++) keys.push((await accountWithKey(database.db)).key);
  let server: NextServer | null = null;
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
    let burst = 0;
    const run = await measure(
      { pid: server.child.pid as number, database: database.name },
      url,
      streamKeys,
      clients,
      bursts,
      events,
      async () => {
        burst++;
        let t0 = 0;
        // As the producer stores a data version's rows: one transaction, its notification delivered at the commit. The
        // latency is counted from the moment COMMIT is sent.
        const rows = JSON.stringify(flowEvents(events, `${burst}`));
        await database.sql.begin(async (tx) => {
          await tx`
          insert into stream_events (env, kind, symbol, premium, dedupe_key, payload, created_at)
          select 'test', 'flow.block', 'AAPL', (p->>'premium')::float8, 'bench:' || (p->>'id'), p, clock_timestamp()
          from jsonb_array_elements(${rows}::jsonb) with ordinality as e(p, n) order by n`;
          await notifyStreamEvents(tx, "test");
          t0 = Date.now();
        });
        return t0;
      },
    );
    const rss = memory.stop();
    const p99Ms = median(run.bursts.map((b) => b.p99Ms));
    say(
      `stream: ${run.opened}/${streams} streams (${clients} client process(es)), ${run.bytesPerEvent} B an event: p99 ${run.bursts.map((b) => b.p99Ms).join(" / ")} ms; ${cpuText(cpuOf(run.bursts))}`,
    );
    return {
      streams,
      clients,
      opened: run.opened,
      events,
      expected: run.opened * events,
      bursts: run.bursts,
      delivered: Math.min(...run.bursts.map((b) => b.delivered)),
      firstMs: median(run.bursts.map((b) => b.firstMs)),
      p50Ms: median(run.bursts.map((b) => b.p50Ms)),
      p99Ms,
      lastMs: median(run.bursts.map((b) => b.lastMs)),
      bytesPerEvent: run.bytesPerEvent,
      cpuMs: cpuOf(run.bursts),
      floor: {
        cpuMs: cpuOf(floor.bursts),
        opened: floor.opened,
        bytesPerEvent: floor.bytesPerEvent,
        bursts: floor.bursts,
        p50Ms: median(floor.bursts.map((b) => b.p50Ms)),
        p99Ms: floorP99,
      },
      p99Ratio: +(p99Ms / floorP99).toFixed(2),
      peakRssMb: Math.round(rss.peakHwmMb),
    };
  } finally {
    await server?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const db = await createTestDatabase("benchstream");
  try {
    await seedReferenceData(db.db, endpointCatalogue());
    const r = await benchStream(db, (m) => process.stdout.write(`[bench] ${m}\n`));
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    await db.drop();
  }
}
