/**
 * History route latency: a 400-day history of one symbol (`GET /api/v1/history/AAPL`, every field) against the same
 * server's constant route, each requested REQUESTS times by CONCURRENCY clients in interleaved rounds; p95 of each and
 * the ratio of the two p95s (the figure that carries across machines).
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { createFixture } from "./setup";
import { startStandalone } from "./proc";
import { newYorkDate } from "../lib/analytics/exchange-calendar";

export interface HistoryBenchResult {
  requests: number;
  rows: number;
  bytes: number;
  p50Ms: number;
  p95Ms: number;
  constantP95Ms: number;
  /** History p95 over the constant route's p95 in the same run. */
  p95Ratio: number;
  /**
   * The same route with a different range each request (about 355–400 days, none asked before): every answer is read
   * and rendered from the store, none is a kept answer. No target; the cost of a first call.
   */
  distinct: { requests: number; p50Ms: number; p95Ms: number; p95Ratio: number };
  /** Requests that got no 200 (either route). */
  failed: number;
}

const CONCURRENCY = 4;
const ROUNDS = 5;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * n requests by CONCURRENCY clients (`url`, or `url(i)` for the i-th); latencies of 200s into `out`; anything else is
 * counted, not thrown.
 */
async function timed(
  url: string | ((i: number) => string),
  headers: Record<string, string>,
  n: number,
  out: number[],
): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        try {
          const res = await fetch(typeof url === "string" ? url : url(i), { headers });
          await res.arrayBuffer();
          if (res.status === 200) out.push(performance.now() - t0);
          else failed++;
        } catch {
          failed++; // a dropped connection on a saturated machine
        }
      }
    }),
  );
  return failed;
}

const DISTINCT_REQUESTS = 200;

/**
 * The measured range: 400 days to the seeded session's day, or fewer when New York's today is already later (the plan
 * window, 400 days, counts back from today).
 */
export function historyRange(seedAt: Date, now = new Date()): { from: string; to: string } {
  const to = newYorkDate(seedAt);
  const fromSeed = shift(to, -399);
  const fromToday = shift(newYorkDate(now), -399);
  return { from: fromSeed > fromToday ? fromSeed : fromToday, to };
}
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export async function benchHistory(baseUrl: string, key: string, from: string, to: string, requests = 500) {
  const path = (f: string, t: string) => `${baseUrl}/api/v1/history/AAPL?from=${f}&to=${t}`;
  const url = path(from, to);
  const auth = { authorization: `Bearer ${key}` };
  const first = await fetch(url, { headers: auth });
  const text = await first.text();
  if (first.status !== 200) throw new Error(`history: ${first.status} ${text.slice(0, 200)}`);
  const rows = (JSON.parse(text) as { data: { count: number } }).data.count;
  const history: number[] = [];
  const constant: number[] = [];
  const perRound = Math.ceil(requests / ROUNDS);
  let failed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    failed += await timed(`${baseUrl}/__bench/constant`, {}, perRound, constant);
    failed += await timed(url, auth, perRound, history);
  }
  // Ranges never asked before: `from` moves by a day over 40 requests, then `to` moves back a day.
  const distinct: number[] = [];
  const distinctConstant: number[] = [];
  const perDistinctRound = Math.ceil(DISTINCT_REQUESTS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    failed += await timed(`${baseUrl}/__bench/constant`, {}, perDistinctRound, distinctConstant);
    const at = (i: number) => round * perDistinctRound + i + 1; // 0 would be the range above, already kept
    failed += await timed(
      (i) => path(shift(from, at(i) % 40), shift(to, -Math.floor(at(i) / 40))),
      auth,
      perDistinctRound,
      distinct,
    );
  }
  const p95 = pct(history, 95);
  const constantP95 = pct(constant, 95);
  return {
    requests: history.length,
    rows,
    bytes: Buffer.byteLength(text),
    p50Ms: +pct(history, 50).toFixed(2),
    p95Ms: +p95.toFixed(2),
    constantP95Ms: +constantP95.toFixed(2),
    p95Ratio: +(p95 / constantP95).toFixed(2),
    distinct: {
      requests: distinct.length,
      p50Ms: +pct(distinct, 50).toFixed(2),
      p95Ms: +pct(distinct, 95).toFixed(2),
      p95Ratio: +(pct(distinct, 95) / pct(distinctConstant, 95)).toFixed(2),
    },
    failed,
  } satisfies HistoryBenchResult;
}

/**
 * Run alone: `npx tsx bench/history.ts` (TEST_PG_URL like the rest of the benchmark): the bench fixture, one standalone
 * server (extra node flags in BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), this part only.
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fixture = await createFixture(1, () => {});
  const server = await startStandalone(
    fixture.database.url,
    { BENCH_CONSTANT_ROUTE: "1", KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" },
    (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean),
  );
  try {
    const { from, to } = historyRange(fixture.seedAt);
    process.stdout.write(
      `[bench] loadavg ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}\n`,
    );
    const r = await benchHistory(
      server.baseUrl,
      fixture.keys[0],
      from,
      to,
      Number(process.env.BENCH_HISTORY_REQUESTS ?? 500),
    );
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } finally {
    await server.stop();
    await fixture.database.drop();
  }
}
