/**
 * db-probe's per-batch modes (bench/db-probe.ts): where the PostgreSQL CPU of metering goes, per admission batch and per
 * call. `sizes` sends batches of a fixed size (PROBE_SIZES, default 1,4,16,64) back to back on one connection and reads
 * that backend's CPU from /proc; `rates` offers calls open-loop at fixed rates (PROBE_RATES, default 500,2000,4000) to an
 * AdmissionBatcher on a pool and reads its backends' CPU (bench/cpu.ts). A variant's SQL (PROBE_FUNCTION: a file with a
 * CREATE OR REPLACE FUNCTION admit_batch …) replaces the function first, to weigh a candidate against the current one.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type postgres from "postgres";
import { AdmissionBatcher, type BatchOptions, runBatch } from "../lib/api/admission";
import type { AdmissionCall } from "../lib/api/limits";
import type { Plan } from "../lib/api/config-cache";
import { burstWindow, quotaWindow } from "../lib/limits/windows";
import { openDatabase } from "../lib/db/client";
import { startCpu } from "./cpu";

const TICK_MS = 10; // USER_HZ is 100 on Linux
const BIG = 1_000_000_000;
const plan = { aPerMinute: BIG, aPerMonth: BIG, bPerMinute: BIG, bPerDay: BIG } as Plan;

export interface ProbeTarget {
  url: string;
  name: string;
  accountId: string;
  keyIds: string[];
  seconds: number;
  say: (line: string) => void;
}

/** One metered call as the pipeline sends it (a 2xx answer of 1,843 bytes, its refusals' sizes as migration 0020). */
export function probeCall(t: ProbeTarget, i: number): AdmissionCall {
  const now = new Date();
  return {
    m: {
      requestId: randomUUID(),
      keyId: t.keyIds[i % t.keyIds.length],
      accountId: t.accountId,
      endpointId: "GET /api/v1/ticker/{symbol}/summary",
      path: "/api/v1/ticker/AAPL/summary",
      bytes: 1843,
      latencyMs: 1,
      now,
    },
    burst: burstWindow("A", plan, now),
    quota: quotaWindow("A", plan, now),
    status: 200,
    errorCode: null,
    record: true,
    refusedBytes: { burst: 97, quota: 95 },
  };
}

function backendMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** PROBE_FUNCTION's files (comma-separated), or the migrated function alone. */
const variants = () => process.env.PROBE_FUNCTION?.split(",") ?? [null];

/** Replaces admit_batch with a variant's text (null: keeps the function as it is). */
async function applyVariant(sql: postgres.Sql, file: string | null, say: (line: string) => void) {
  if (!file) return;
  await sql.unsafe(readFileSync(file, "utf8"));
  say(`admit_batch replaced by ${file}`);
}

/** Back-to-back work on one connection for t.seconds: that backend's CPU per unit of work. */
async function timeBackend(sql: postgres.Sql, seconds: number, work: () => Promise<unknown>) {
  const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  for (let i = 0; i < 50; i++) await work(); // warm: plans cached, rows and pages in memory
  const cpu0 = backendMs(pid);
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < seconds * 1000) {
    await work();
    n++;
  }
  return { n, cpuMs: backendMs(pid) - cpu0, wallMs: performance.now() - t0 };
}

/** `sizes`: PostgreSQL CPU per batch and per call at fixed batch sizes, one batch at a time. */
export async function probeSizes(t: ProbeTarget) {
  const sizes = (process.env.PROBE_SIZES ?? "1,4,16,64").split(",").map(Number);
  const db = openDatabase(t.url, { max: 1 });
  try {
    const one = await timeBackend(db.sql, t.seconds, () => db.sql`select 1`);
    t.say(`select 1: backend ${((one.cpuMs * 1000) / one.n).toFixed(1)} µs per statement`);
    let next = 0;
    for (const file of variants()) {
      await applyVariant(db.sql, file, t.say);
      for (const size of sizes) {
        const r = await timeBackend(db.sql, t.seconds, () =>
          runBatch(
            db.sql,
            Array.from({ length: size }, () => probeCall(t, next++)),
          ),
        );
        const perBatch = (r.cpuMs * 1000) / r.n;
        t.say(
          `batch of ${String(size).padStart(3)}: ${String(r.n).padStart(6)} batches, backend ${perBatch.toFixed(0).padStart(5)} µs per batch, ` +
            `${(perBatch / size).toFixed(1).padStart(6)} µs per call; wall ${(r.wallMs / r.n).toFixed(2)} ms per batch`,
        );
      }
    }
  } finally {
    await db.close();
  }
}

/** Offers calls at `rate` per second (open loop, 1 ms ticks) for t.seconds; resolves with each call's latency (ms). */
async function offer(t: ProbeTarget, batcher: AdmissionBatcher, rate: number): Promise<number[]> {
  const lat: number[] = [];
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      const elapsed = performance.now() - t0;
      if (elapsed >= t.seconds * 1000) {
        clearInterval(tick);
        done();
        return;
      }
      for (const due = Math.floor((elapsed * rate) / 1000); sent < due; sent++) {
        const at = performance.now();
        pending.push(batcher.admit(probeCall(t, sent)).then(() => void lat.push(performance.now() - at)));
      }
    }, 1);
  });
  await Promise.all(pending);
  return lat.sort((a, b) => a - b);
}

/** `rates`: an AdmissionBatcher (the app's options, PROBE_GATHER_US) fed open-loop; PostgreSQL CPU per call and batch. */
export async function probeRates(t: ProbeTarget, options: BatchOptions) {
  const rates = (process.env.PROBE_RATES ?? "500,2000,4000").split(",").map(Number);
  const db = openDatabase(t.url, { max: 10 });
  try {
    await applyVariant(db.sql, variants()[0], t.say);
    for (const rate of rates) {
      const batcher = new AdmissionBatcher(db.sql, options);
      await offer(t, batcher, rate).catch(() => []); // warm the pool's connections
      const batches0 = batcher.batches;
      const cpu = startCpu(process.pid, t.name);
      const lat = await offer(t, batcher, rate);
      const c = cpu.stop();
      const batches = batcher.batches - batches0;
      const pg = (c.postgresMs ?? 0) * 1000;
      const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))].toFixed(2);
      t.say(
        `${String(rate).padStart(5)} /s offered: ${(lat.length / t.seconds).toFixed(0).padStart(5)} /s, ${(lat.length / batches).toFixed(1).padStart(5)} calls per batch; ` +
          `postgres ${(pg / lat.length).toFixed(1).padStart(6)} µs per call, ${(pg / batches).toFixed(0).padStart(5)} µs per batch; ` +
          `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms; node ${(((c.serverMs ?? 0) * 1000) / lat.length).toFixed(0)} µs per call`,
      );
    }
  } finally {
    await db.close();
  }
}
