/**
 * Diagnostic (`npx tsx bench/db-probe.ts`): batched limits + metering alone, pgbench-style — C concurrent
 * loops for D seconds on a pool of P connections, no HTTP — next to `select 1` and the same statement with
 * synchronous_commit off, to tell database cost from HTTP/Node cost. Throwaway database, dropped at the end.
 * Env: PROBE_POOL (10), PROBE_CONCURRENCY (50), PROBE_SECONDS (4), BENCH_KEYS (8), PROBE_IN_FLIGHT (1), PROBE_VARIANTS
 * (e.g. "default,synchronous"). PROBE_MODE=sizes or rates measures PostgreSQL CPU per admission batch and per call
 * instead (bench/db-probe-batches.ts: PROBE_SIZES, PROBE_RATES, PROBE_FUNCTION, PROBE_GATHER_US).
 */
import { sql } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { endpointCatalogue } from "../lib/api/routes";
import { AdmissionBatcher } from "../lib/api/admission";
import { burstWindow, quotaWindow } from "../lib/limits/windows";
import type { Plan } from "../lib/api/config-cache";
import { openDatabase } from "../lib/db/client";
import { createKey } from "../lib/domain/keys";
import { systemActor } from "../lib/domain/audit";
import { seedReferenceData } from "../lib/domain/seed";
import { accountWithKey } from "../fixtures/accounts";
import { createTestDatabase } from "../fixtures/test-db";
import { startCpu } from "./cpu";
import { median } from "./engine";
import { probeRates, probeSizes } from "./db-probe-batches";

const POOL = Number(process.env.PROBE_POOL ?? 10);
const CONCURRENCY = Number(process.env.PROBE_CONCURRENCY ?? 50);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 4);
const KEYS = Number(process.env.BENCH_KEYS ?? 8);
// admission transactions in flight (the app's ADMISSION_IN_FLIGHT)
const IN_FLIGHT = Number(process.env.PROBE_IN_FLIGHT ?? 1);
const MODE = process.env.PROBE_MODE ?? "loops";
// the admission gather window, µs (the app's ADMISSION_GATHER_US)
const GATHER_US = Number(process.env.PROBE_GATHER_US ?? 0);
const BIG = 1_000_000_000;
const plan = { aPerMinute: BIG, aPerMonth: BIG, bPerMinute: BIG, bPerDay: BIG } as Plan;

async function loop(label: string, database: string, call: (i: number) => Promise<unknown>) {
  const cpu = startCpu(process.pid, database);
  const lat: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        await call(n++);
        lat.push(performance.now() - t);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const p99 = lat[Math.floor(lat.length * 0.99)];
  const c = cpu.stop();
  const rate = lat.length / SECONDS;
  process.stdout.write(
    `${label.padEnd(56)} ${rate.toFixed(0).padStart(6)} /s  p50 ${median(lat).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  ` +
      `CPU per call: node ${((c.serverCores / rate) * 1000).toFixed(3)} ms, postgres ${((c.postgresCores / rate) * 1000).toFixed(3)} ms; machine ${c.machineBusyPct.toFixed(0)} %\n`,
  );
}

async function main() {
  const test = await createTestDatabase("probe");
  try {
    await seedReferenceData(test.db, endpointCatalogue());
    const first = await accountWithKey(test.db);
    const keyIds = [first.keyId];
    for (let i = 1; i < KEYS; i++)
      keyIds.push((await createKey(test.db, { accountId: first.accountId, env: "test" }, systemActor("probe"))).id);
    const target = {
      url: test.url,
      name: test.name,
      accountId: first.accountId,
      keyIds,
      seconds: SECONDS,
      say: (line: string) => void process.stdout.write(`${line}\n`),
    };
    if (MODE === "sizes") return await probeSizes(target);
    if (MODE === "rates")
      return await probeRates(target, {
        maxBatch: 256,
        maxQueue: 4096,
        maxInFlight: IN_FLIGHT,
        gatherUs: GATHER_US,
      });
    const all: [string, Record<string, string>][] = [
      ["default", {}],
      ["plan_cache_mode=force_generic_plan", { plan_cache_mode: "force_generic_plan" }],
      ["synchronous_commit=off", { synchronous_commit: "off" }],
    ];
    const wanted = process.env.PROBE_VARIANTS?.split(",") ?? null;
    const variants = all.filter(([name]) => !wanted || wanted.some((v) => name.startsWith(v)));
    process.stdout.write(
      `pool ${POOL}, ${CONCURRENCY} concurrent loops, ${SECONDS} s each, ${KEYS} keys, ${IN_FLIGHT} admission batch(es) in flight\n`,
    );
    for (const [name, connection] of variants) {
      const url = new URL(test.url);
      for (const [k, v] of Object.entries(connection)) url.searchParams.set(k, v);
      const db = openDatabase(url.toString(), { max: POOL });
      try {
        await loop(`select 1 (${name})`, test.name, () => db.sql`select 1`);
        const batcher = new AdmissionBatcher(db.sql, {
          maxBatch: 256,
          maxQueue: 4096,
          maxInFlight: IN_FLIGHT,
          gatherUs: GATHER_US,
        });
        await loop(`batched admission (${name})`, test.name, (i) => {
          const now = new Date();
          const m = {
            requestId: randomUUID(),
            keyId: keyIds[i % KEYS],
            accountId: first.accountId,
            endpointId: "GET /api/v1/ticker/{symbol}/summary",
            path: "/api/v1/ticker/AAPL/summary", // as the pipeline keeps it (lib/api/logged-path.ts)
            bytes: 1843, // the answer's size, and the refusals' below, as the pipeline sends them (migration 0020)
            latencyMs: 1,
            now,
          };
          return batcher.admit({
            m,
            burst: burstWindow("A", plan, now),
            quota: quotaWindow("A", plan, now),
            status: 200,
            errorCode: null,
            record: true,
            refusedBytes: { burst: 97, quota: 95 },
          });
        });
      } finally {
        await db.close();
      }
    }
    const [{ n }] = await test.db.execute<{ n: string }>(sql`select count(*)::text as n from usage_events`);
    process.stdout.write(`usage_events rows written: ${n}\n`);
  } finally {
    await test.drop();
  }
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + "\n");
  process.exitCode = 1;
});
