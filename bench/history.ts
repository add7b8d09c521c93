/**
 * History route latency: a 400-day history of one symbol (`GET /api/v1/history/AAPL`, every field) against the same
 * server's constant route, each requested REQUESTS times by CONCURRENCY clients in interleaved rounds; p95 of each and
 * the ratio of the two p95s (the figure that carries across machines).
 */
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { createFixture } from "./setup";
import { startStandalone } from "./proc";

export interface HistoryBenchResult {
  requests: number;
  rows: number;
  bytes: number;
  p50Ms: number;
  p95Ms: number;
  constantP95Ms: number;
  /** History p95 over the constant route's p95 in the same run. */
  p95Ratio: number;
  /** Requests that got no 200 (either route). */
  failed: number;
}

const CONCURRENCY = 4;
const ROUNDS = 5;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** n requests by CONCURRENCY clients; latencies of 200s into `out`; anything else is counted, not thrown. */
async function timed(url: string, headers: Record<string, string>, n: number, out: number[]): Promise<number> {
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < n) {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers });
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

export async function benchHistory(baseUrl: string, key: string, from: string, to: string, requests = 500) {
  const url = `${baseUrl}/api/v1/history/AAPL?from=${from}&to=${to}`;
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
    const to = fixture.seedAt.toISOString().slice(0, 10);
    const from = new Date(+fixture.seedAt - 399 * 86_400_000).toISOString().slice(0, 10);
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
