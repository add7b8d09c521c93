/**
 * Diagnostic (`npx tsx bench/profile-route.ts [constant|health|pipeline ...]`): the standalone server under wrk at
 * saturation, one route at a time, and its CPU per call (server process tree and the benchmark database's PostgreSQL
 * backends, from /proc). For profile-guided work on the per-call cost (issue 33): PROFILE_NODE_ARGS passes node flags
 * to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); PROFILE_SECONDS (8) per route; PROFILE_ROUNDS (1)
 * rounds over the routes. PROFILE_FIXTURE=<file> keeps the seeded database and its keys in that JSON file and reuses
 * them on the next run (drop it with `dropdb` when done); without it the database is dropped at the end.
 * PROFILE_RATE=<req/s> offers that fixed rate (bench/open-loop-worker.ts) instead of saturating with wrk.
 * PROFILE_SERVER_OUTPUT=<file> writes the end of the server's output there (e.g. with PROFILE_NODE_ARGS=--trace-gc).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import postgres from "postgres";
import { startCpu, userSystemMs } from "./cpu";
import { pickTool, runLoad, runOpenLoop } from "./load";
import { startStandalone } from "./proc";
import { createFixture } from "./setup";

const PATHS: Record<string, string> = {
  constant: "/__bench/constant",
  health: "/api/v1/health",
  pipeline: "/api/v1/ticker/AAPL/summary",
};

interface Kept {
  url: string;
  name: string;
  keys: string[];
}

async function fixture(): Promise<{ kept: Kept; drop: () => Promise<void> }> {
  const file = process.env.PROFILE_FIXTURE;
  if (file && existsSync(file)) return { kept: JSON.parse(readFileSync(file, "utf8")) as Kept, drop: async () => {} };
  let drop = async () => {};
  const f = await createFixture(8, (db) => {
    drop = () => db.drop();
  });
  const kept = { url: f.database.url, name: new URL(f.database.url).pathname.slice(1), keys: f.keys };
  if (!file) return { kept, drop };
  await f.database.sql.end();
  writeFileSync(file, JSON.stringify(kept));
  return { kept, drop: async () => {} };
}

/** wrk at saturation, or the open-loop generator at PROFILE_RATE; req/s, p99 and the calls answered. */
async function measure(url: string, kept: Kept, seconds: number) {
  const rate = Number(process.env.PROFILE_RATE ?? 0);
  if (!rate) return runLoad(pickTool(), { url, keys: kept.keys, connections: 50, durationS: seconds, warmupS: 0 });
  const r = await runOpenLoop(
    { url, keys: kept.keys, rate, durationS: seconds, connections: 100, warmupS: 0 },
    () => {},
  );
  return { reqPerSec: r.achievedRate, p99Ms: r.p99Ms, requests: r.requests, non2xx: r.non2xx };
}

async function main() {
  const routes = process.argv.slice(2).length ? process.argv.slice(2) : ["constant", "health", "pipeline"];
  const seconds = Number(process.env.PROFILE_SECONDS ?? 8);
  const rounds = Number(process.env.PROFILE_ROUNDS ?? 1);
  const nodeArgs = (process.env.PROFILE_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const { kept, drop } = await fixture();
  const server = await startStandalone(kept.url, { BENCH_CONSTANT_ROUTE: "1", API_POOL_MAX: "10" }, nodeArgs);
  const sql = postgres(kept.url, { max: 1, onnotice: () => {} });
  try {
    for (let r = 0; r < rounds; r++)
      for (const route of routes) {
        const url = server.baseUrl + PATHS[route];
        await runLoad(pickTool(), { url, keys: kept.keys, connections: 50, durationS: 1, warmupS: 0 });
        const [{ n: before }] = await sql<{ n: number }[]>`select count(*)::int as n from usage_events`;
        const cpu = startCpu(server.child.pid!, kept.name);
        const [user0, system0] = userSystemMs(server.child.pid!);
        const load = await measure(url, kept, seconds);
        const used = cpu.stop();
        const [user1, system1] = userSystemMs(server.child.pid!);
        const [{ n: after }] = await sql<{ n: number }[]>`select count(*)::int as n from usage_events`;
        const perCall = (ms = 0) => ((1000 * ms) / load.requests).toFixed(1);
        console.log(
          `${route.padEnd(9)} ${load.reqPerSec.toFixed(0).padStart(6)} req/s  p99 ${load.p99Ms.toFixed(2)} ms  ` +
            `server ${perCall(used.serverMs)} µs/call (user ${perCall(user1 - user0)}, system ${perCall(system1 - system0)})  ` +
            `pg ${perCall(used.postgresMs)} µs/call  ` +
            `metered ${after - before}  non-2xx ${load.non2xx}`,
        );
      }
  } finally {
    await sql.end();
    await server.stop();
    if (process.env.PROFILE_SERVER_OUTPUT) writeFileSync(process.env.PROFILE_SERVER_OUTPUT, server.output());
    await drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
