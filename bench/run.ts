/**
 * `npm run bench`: a report, not a test (exit code 0 whatever the numbers). Throwaway PostgreSQL database with the
 * demo market and raised Sandbox limits → engine timings → standalone API server (constant route vs full pipeline)
 * → `next start` (constant route handler vs the /api/v1 mount) → table, PASS/FAIL per target,
 * bench/results/latest.json.
 * Env: TEST_PG_URL, API_POOL_MAX (default 10), BENCH_DURATION_S (15 s per scenario, split into BENCH_ROUNDS (3)
 * interleaved rounds), BENCH_KEYS (8), BENCH_LOAD_TOOL=autocannon,
 * BENCH_NEXT=off, BENCH_NEXT_BUILD=never, BENCH_AMERICAN=off, BENCH_HISTORY=off, BENCH_ENGINE=off, BENCH_TICKER=off, BENCH_USAGE=off, BENCH_WEBHOOKS=off,
 * BENCH_MARKET_SYNC=off, BENCH_RESET=off, BENCH_STREAM=off (its own knobs: BENCH_STREAMS, BENCH_STREAM_EVENTS, BENCH_STREAM_BURSTS, BENCH_STREAM_CLIENTS,
 * BENCH_STREAM_PAYLOAD=full, BENCH_STREAM_NODE_ARGS; see bench/stream.ts),
 * BENCH_USAGE_EVENTS (1000000), BENCH_LOG_LEVEL (warn);
 * the per-call part (issue 33, bench/percall.ts: CPU µs, latency and RSS per call of the constant route and the
 * pipeline at fixed offered loads and at saturation): BENCH_PERCALL=off skips it, BENCH_PERCALL=only runs it alone
 * (every other part and the saturating table off: e.g. `BENCH_PERCALL=only BENCH_DURATION_S=6 BENCH_ROUNDS=1 npm run
 * bench`), BENCH_RATES (req/s offered, "2000,4000"), BENCH_PERCALL_CONNECTIONS (at most 100 open-loop connections);
 * it measures each route at each load for BENCH_DURATION_S in BENCH_ROUNDS interleaved rounds; diagnostics: BENCH_SERVER_NODE_ARGS / BENCH_NEXT_NODE_ARGS
 * (e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof") are extra node flags for the standalone / Next server, BENCH_PG_PARAMS (e.g.
 * "synchronous_commit=off") is appended to its DATABASE_URL.
 */
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { startCpu } from "./cpu";
import { benchAmerican } from "./american";
import { benchEngine } from "./engine";
import { benchTicker } from "./ticker";
import { benchUsage } from "./usage";
import { combineRounds, pickTool, runLoad, type LoadResult } from "./load";
import { buildNext, nextNeedsBuild, sampleMemory, startNext, startStandalone, type NextServer } from "./proc";
import { evaluate, printReport, ratios, writeResults, type BenchResults, type ServerRuns } from "./report";
import { createFixture } from "./setup";
import type { TestDatabase } from "../fixtures/test-db";
import { benchWebhooks } from "./webhooks";
import { benchHistory, historyRange } from "./history";
import { benchStream } from "./stream";
import { benchMarketSync } from "./market-sync";
import { benchResetFlood } from "./reset-flood";
import { benchPerCall, parseRates } from "./percall";

const CONNECTIONS = 50;
const WARMUP_S = 2;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const KEY_COUNT = Number(process.env.BENCH_KEYS ?? 8);
const POOL_MAX = Number(process.env.API_POOL_MAX ?? 10);
/** BENCH_PERCALL=only: the per-call part alone, as if every other part's flag were off. */
const ONLY_PER_CALL = process.env.BENCH_PERCALL === "only";
const skipped = (flag: string) => process.env[flag] === "off" || (ONLY_PER_CALL && flag !== "BENCH_PERCALL");
const RATES = parseRates(process.env.BENCH_RATES);
const PER_CALL_CONNECTIONS = Number(process.env.BENCH_PERCALL_CONNECTIONS ?? 100);
/** Per route, load and round: the run, the open-loop warm-up (1 s), the worker's start and the drain. */
const PER_CALL_MS = skipped("BENCH_PERCALL")
  ? 0
  : 30_000 + ROUNDS * (2 * RATES.length + 3) * (Math.max(1, Math.round(DURATION_S / ROUNDS)) + 6) * 1000;
const BUDGET_MS =
  PER_CALL_MS +
  // hard stop: cleanup and report whatever was measured
  (skipped("BENCH_WEBHOOKS") ? 305_000 : 425_000) +
  (skipped("BENCH_TICKER") ? 0 : 75_000) +
  (skipped("BENCH_STREAM") ? 0 : 300_000);
const PIPELINE_PATH = "/api/v1/ticker/AAPL/summary";
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? "warn"; // "info" adds the per-request access log line

const started = Date.now();
const elapsed = () => Date.now() - started;
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | null = null;
const say = (msg: string) => process.stdout.write(`[bench ${(elapsed() / 1000).toFixed(1)}s] ${msg}\n`);

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((err) => say(`cleanup failed: ${err}`));
  })();
  return cleaning;
}

const tool = pickTool();
const results: BenchResults = {
  startedAt: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, loadavgBefore: loadavg().map((x) => +x.toFixed(2)) },
  load: {
    tool,
    connections: CONNECTIONS,
    durationS: DURATION_S,
    rounds: ROUNDS,
    warmupS: WARMUP_S,
    keys: KEY_COUNT,
    keyRotation:
      tool === "wrk"
        ? `${KEY_COUNT} keys rotated per request (Lua)`
        : `${KEY_COUNT} keys round-robin over the ${CONNECTIONS} connections`,
  },
  standalone: { poolMax: POOL_MAX },
  next: {},
};

function finish(): void {
  results.finishedAt = new Date().toISOString();
  results.machine.loadavgAfter = loadavg().map((x) => +x.toFixed(2));
  results.targets = evaluate(results);
  results.ratios = ratios(results);
  process.stdout.write("\n");
  printReport(results);
  say(`results written to ${writeResults(results)}`);
}

/** An optional part of the run: `<flag>=off` skips it; a failure is recorded in the results, not thrown. */
async function part<T>(flag: string, run: () => Promise<T>): Promise<T | { error: string }> {
  if (skipped(flag)) return { error: `skipped (${ONLY_PER_CALL ? "BENCH_PERCALL=only" : `${flag}=off`})` };
  try {
    return await run();
  } catch (err) {
    return { error: String(err) };
  }
}

/** 50 options-flow events with their contracts: the heaviest analytics payload, against the small ticker summary. */
const HEAVY_PATH = "/api/v1/options-flow?limit=50";

/** Waits (bounded) until the pipeline answers 200, so the measured window never includes a cold start. */
async function probe(url: string, keys: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${keys[0]}` } }).catch((err) => err as Error);
    if (!(res instanceof Error) && res.status === 200) return void (await res.text());
    if (Date.now() > deadline) {
      throw new Error(
        `probe ${url}: ${res instanceof Error ? res.message : `${res.status} ${(await res.text()).slice(0, 300)}`}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Calls the server itself metered (usage_events rows): a cross-check of the load generator's count. */
const metered = async (db: TestDatabase) => Number((await db.sql`select count(*)::int as n from usage_events`)[0].n);

/**
 * Each scenario is measured in ROUNDS interleaved rounds (constant, pipeline, heavy, constant, …) of DURATION_S /
 * ROUNDS
 * seconds, after one warm-up each: a burst of noise from elsewhere on the machine then lands on every scenario alike
 * instead of on one of them, so the ratios to the constant route hold from run to run.
 */
async function measure(
  runs: ServerRuns,
  pid: number,
  db: TestDatabase,
  constantUrl: string,
  pipelineUrl: string,
  keys: string[],
  heavyUrl?: string,
): Promise<void> {
  const memory = sampleMemory(pid);
  try {
    const scenarios: { name: "constant" | "pipeline" | "heavy"; url: string; keys: string[]; what: string }[] = [
      { name: "constant", url: constantUrl, keys: [], what: "" },
      { name: "pipeline", url: pipelineUrl, keys, what: ` (${keys.length} keys)` },
      ...(heavyUrl
        ? [
            {
              name: "heavy" as const,
              url: heavyUrl,
              keys,
              what: ` (${keys.length} keys; the largest analytics payload)`,
            },
          ]
        : []),
    ];
    const roundS = Math.max(1, Math.round(DURATION_S / ROUNDS));
    for (const s of scenarios)
      await runLoad(tool, { url: s.url, keys: s.keys, connections: CONNECTIONS, durationS: WARMUP_S, warmupS: 0 });
    const measured = new Map<string, LoadResult[]>(scenarios.map((s) => [s.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const s of scenarios) {
        // Separate generator runs per round so that the CPU accounting covers the measured window only.
        const before = s.keys.length ? await metered(db) : 0;
        const cpu = startCpu(pid, db.name);
        const r = await runLoad(tool, {
          url: s.url,
          keys: s.keys,
          connections: CONNECTIONS,
          durationS: roundS,
          warmupS: 0,
        });
        r.cpu = cpu.stop();
        if (s.keys.length) r.serverMetered = (await metered(db)) - before;
        measured.get(s.name)!.push(r);
        say(
          `  round ${round}/${ROUNDS} ${s.url}${s.what}: ${r.reqPerSec.toFixed(0)} req/s, p99 ${r.p99Ms.toFixed(1)} ms, non-2xx ${r.non2xx}` +
            `${s.keys.length ? ` (server metered ${r.serverMetered} calls, generator counted ${r.requests})` : ""}; cores: server ${r.cpu.serverCores.toFixed(2)}, ` +
            `postgres ${r.cpu.postgresCores.toFixed(2)} (+${r.cpu.postgresOtherCores.toFixed(2)} other), generator ${r.generatorCores?.toFixed(2) ?? "n/a"}, machine ${r.cpu.machineCores.toFixed(2)} (${r.cpu.machineBusyPct.toFixed(0)} %)`,
        );
      }
    }
    for (const s of scenarios) runs[s.name] = combineRounds(measured.get(s.name)!);
  } finally {
    runs.memory = memory.stop();
  }
}

async function main(): Promise<void> {
  say(
    `load generator: ${tool} (${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s in ${ROUNDS} interleaved rounds per scenario); cpus ${cpus().length}; loadavg ${results.machine.loadavgBefore.join(" ")}`,
  );
  const fixture = await createFixture(KEY_COUNT, (db) => cleanups.push(() => db.drop()));
  const { database, keys } = fixture;
  say(
    `database ${database.name}: demo market seeded at ${fixture.seedAt.toISOString()} (${fixture.seed.rows.quotes} quotes, ${fixture.seed.writeMs} ms write); ` +
      `${keys.length} test keys on the Sandbox plan with limits raised to 1e9`,
  );

  results.american = await part("BENCH_AMERICAN", async () => {
    say("American implied vol: solves per second on one core (5 s)");
    return benchAmerican(5);
  });
  results.engine = await part("BENCH_ENGINE", () => {
    say("engine: full recompute (3 runs), one-minute steps (3 runs) and a minute of 5-second ticks");
    return benchEngine(database, fixture.seedAt, 3);
  });
  // The ticker runs the engine too: BENCH_ENGINE=off skips it as well.
  results.ticker = await part(skipped("BENCH_ENGINE") ? "BENCH_ENGINE" : "BENCH_TICKER", () => {
    say("demo ticker at rest: engine + ticker in this process, 60 s of a session in real time, no requests");
    return benchTicker(database, database.name, 60);
  });
  results.usage = await part("BENCH_USAGE", async () => {
    say("portal usage page data: usageSummary + first request-log page for an account with 1M usage events");
    const usage = await benchUsage(Number(process.env.BENCH_USAGE_EVENTS ?? 1_000_000), 30, say);
    say(`  p95 ${usage.pageP95Ms} ms (summary ${usage.summaryP95Ms} ms, log ${usage.logP95Ms} ms)`);
    return usage;
  });

  let api: NextServer | null = null;
  try {
    const pgParams = process.env.BENCH_PG_PARAMS;
    const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
    const serverUrl = pgParams ? `${database.url}${database.url.includes("?") ? "&" : "?"}${pgParams}` : database.url;
    const notes = [
      pgParams && `DATABASE_URL parameters: ${pgParams}`,
      nodeArgs.length && `node flags: ${nodeArgs.join(" ")}`,
      LOG_LEVEL !== "warn" && `LOG_LEVEL=${LOG_LEVEL}`,
    ];
    if (notes.some(Boolean)) results.standalone.note = notes.filter(Boolean).join("; ");
    api = await startStandalone(
      serverUrl,
      {
        BENCH_CONSTANT_ROUTE: "1",
        API_POOL_MAX: String(POOL_MAX),
        KEY_CACHE_TTL_MS: "4000",
        CONFIG_CACHE_TTL_MS: "4000",
        LOG_LEVEL: LOG_LEVEL,
      },
      nodeArgs,
    );
    const server = api;
    cleanups.push(() => server.stop());
    say(`standalone server pid ${api.child.pid} at ${api.baseUrl} (API_POOL_MAX=${POOL_MAX})`);
    await probe(api.baseUrl + PIPELINE_PATH, keys, 20_000);
    if (ONLY_PER_CALL) results.standalone.note = "saturating table skipped (BENCH_PERCALL=only)";
    else
      await measure(
        results.standalone,
        api.child.pid!,
        database,
        `${api.baseUrl}/__bench/constant`,
        api.baseUrl + PIPELINE_PATH,
        keys,
        api.baseUrl + HEAVY_PATH,
      );
    const base = api.baseUrl;
    const pid = api.child.pid!;
    results.perCall = await part("BENCH_PERCALL", () => {
      say(
        `per call: constant route and pipeline at ${RATES.join(", ")} req/s offered (open-loop) and at saturation (${tool}), ` +
          `${ROUNDS} round(s) of ${Math.max(1, Math.round(DURATION_S / ROUNDS))} s each`,
      );
      return benchPerCall({
        pid,
        db: database,
        tool,
        urls: { constant: `${base}/__bench/constant`, pipeline: base + PIPELINE_PATH, health: `${base}/api/v1/health` },
        keys,
        rates: RATES,
        roundS: Math.max(1, Math.round(DURATION_S / ROUNDS)),
        rounds: ROUNDS,
        saturationConnections: CONNECTIONS,
        openLoopConnections: PER_CALL_CONNECTIONS,
        say,
      });
    });
    results.history = await part("BENCH_HISTORY", async () => {
      const { from, to } = historyRange(fixture.seedAt);
      say(`history: 400 days of AAPL (${from}..${to}) against the constant route, p95`);
      const h = await benchHistory(base, keys[0], from, to);
      say(
        `  ${h.rows} rows, ${h.bytes} bytes: p95 ${h.p95Ms} ms (constant ${h.constantP95Ms} ms, ratio ${h.p95Ratio})`,
      );
      return h;
    });
    results.marketSync = await part("BENCH_MARKET_SYNC", () =>
      benchMarketSync(database, base + PIPELINE_PATH, keys, say),
    );
  } catch (err) {
    results.standalone.error = String(err);
  } finally {
    if (api) {
      if ((results.standalone.pipeline?.non2xx ?? 0) > 0) say(`server output tail:\n${api.output().slice(-2000)}`);
      await api.stop();
    }
  }

  if (skipped("BENCH_NEXT")) results.next.note = `skipped (${ONLY_PER_CALL ? "BENCH_PERCALL=only" : "BENCH_NEXT=off"})`;
  else await benchNext(database, keys);

  results.webhooks = await part("BENCH_WEBHOOKS", () => benchWebhooks(database, say));
  results.stream = await part("BENCH_STREAM", () => benchStream(database, say));
}

async function benchNext(database: TestDatabase, keys: string[]): Promise<void> {
  let next: NextServer | null = null;
  try {
    if (nextNeedsBuild()) {
      if (process.env.BENCH_NEXT_BUILD === "never")
        throw new Error(".next is missing or stale and BENCH_NEXT_BUILD=never");
      const room = BUDGET_MS - elapsed() - 2 * (WARMUP_S + DURATION_S) * 1000 - 20_000; // the Next part: two scenarios
      if (room < 30_000) throw new Error("no time left in the budget to build the Next app");
      say(`next build (sources newer than .next/BUILD_ID), at most ${Math.round(room / 1000)} s`);
      const built = buildNext(room);
      if (!built.ok) throw new Error(`next build failed after ${built.ms} ms:\n${built.output}`);
      results.next.note = `built in ${Math.round(built.ms / 1000)} s`;
    }
    const nodeArgs = (process.env.BENCH_NEXT_NODE_ARGS ?? "").split(" ").filter(Boolean);
    // A throwaway secret: production refuses to start without AUTH_SECRET, and the bench signs no session that outlives
    // it.
    const authSecret = randomBytes(32).toString("base64");
    next = await startNext(
      {
        DATABASE_URL: database.url,
        BENCH_CONSTANT_ROUTE: "1",
        DEMO_TICKER: "off",
        LOG_LEVEL: LOG_LEVEL,
        AUTH_SECRET: authSecret,
        MAIL_TO_LOG: "on", // production refuses to start without a mail route; the bench sends no mail
      },
      "/api/bench-constant",
      nodeArgs,
    );
    const server = next;
    cleanups.push(() => server.stop());
    say(`next start pid ${next.child.pid} at ${next.baseUrl}`);
    await probe(next.baseUrl + PIPELINE_PATH, keys, 30_000); // the first /api/v1 call starts the shared gateway
    await measure(
      results.next,
      next.child.pid!,
      database,
      `${next.baseUrl}/api/bench-constant`,
      next.baseUrl + PIPELINE_PATH,
      keys,
    );
    const nextBase = next.baseUrl;
    results.resetFlood = await part("BENCH_RESET", () => {
      say("sign-in p95 at rest, then under 300 concurrent bogus password-reset completions (next start)");
      return benchResetFlood(database, nextBase, say);
    });
  } catch (err) {
    results.next.error = String(err);
  } finally {
    await next?.stop();
  }
}

const watchdog = setTimeout(() => {
  say(`budget of ${BUDGET_MS / 1000} s exhausted: stopping`);
  void cleanup().then(() => {
    finish();
    process.exit(0);
  });
}, BUDGET_MS);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().then(() => process.exit(130)));
}

main()
  .catch((err) => say(`failed: ${err instanceof Error ? err.stack : err}`))
  .finally(async () => {
    clearTimeout(watchdog);
    await cleanup();
    finish();
    say(`done in ${(elapsed() / 1000).toFixed(0)} s`);
    process.exit(0);
  });
