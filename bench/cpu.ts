/**
 * CPU accounting over a load run (Linux /proc): the server's process tree, every `postgres` process (including other
 * databases' backends on a shared server) and the whole machine, as cores used on average.
 */
import { readdirSync, readFileSync } from "node:fs";
import { processTree } from "./proc";

const TICK_S = 0.01; // USER_HZ is 100 on Linux

/** A process's name and its user and system CPU ticks so far (/proc/<pid>/stat utime and stime); null once it exited. */
function procStat(pid: number): { comm: string; user: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return { comm: stat.slice(stat.indexOf("(") + 1, close), user: Number(fields[11]), system: Number(fields[12]) };
  } catch {
    return null;
  }
}

function procTicks(pid: number): { comm: string; ticks: number } | null {
  const s = procStat(pid);
  return s && { comm: s.comm, ticks: s.user + s.system };
}

/** One process's user and system CPU time so far, ms (0 once it exited). */
export function userSystemMs(pid: number): [number, number] {
  const s = procStat(pid);
  return s ? [s.user * TICK_S * 1000, s.system * TICK_S * 1000] : [0, 0];
}

/** Every postgres process, flagged when it is a backend of `database` (its title names the database). */
function postgresTicks(database: string): Map<number, { ticks: number; ours: boolean }> {
  const out = new Map<number, { ticks: number; ours: boolean }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const t = procTicks(Number(entry));
    if (!t || t.comm !== "postgres") continue;
    let title = "";
    try {
      title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      // exited meanwhile
    }
    out.set(Number(entry), { ticks: t.ticks, ours: title.includes(` ${database} `) });
  }
  return out;
}

function machine(): { busy: number; total: number } {
  const [, ...v] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const n = v.map(Number);
  const total = n.slice(0, 8).reduce((s, x) => s + x, 0);
  return { busy: total - n[3] - n[4], total };
}

export interface CpuReport {
  /** Average cores used during the run. */
  serverCores: number;
  /** The backends serving the benchmark's database. */
  postgresCores: number;
  /** Every other postgres process: background writers, WAL writer, and other databases' backends (other users). */
  postgresOtherCores: number;
  machineCores: number;
  machineBusyPct: number;
  /** The same as CPU time over the run (for CPU per call): the server's tree, our backends, and the run's length. */
  serverMs?: number;
  postgresMs?: number;
  seconds?: number;
}

export function startCpu(pid: number, database: string): { stop(): CpuReport } {
  const t0 = performance.now();
  const server0 = processTree(pid).reduce((s, p) => s + (procTicks(p)?.ticks ?? 0), 0);
  const pg0 = postgresTicks(database);
  const m0 = machine();
  return {
    stop() {
      const seconds = (performance.now() - t0) / 1000;
      const server1 = processTree(pid).reduce((s, p) => s + (procTicks(p)?.ticks ?? 0), 0);
      let pg = 0;
      let pgOther = 0;
      for (const [p, now] of postgresTicks(database)) {
        const used = now.ticks - (pg0.get(p)?.ticks ?? 0); // new backends count from zero
        if (now.ours) pg += used;
        else pgOther += used;
      }
      const m1 = machine();
      const busy = m1.busy - m0.busy;
      const total = m1.total - m0.total;
      return {
        serverCores: ((server1 - server0) * TICK_S) / seconds,
        postgresCores: (pg * TICK_S) / seconds,
        postgresOtherCores: (pgOther * TICK_S) / seconds,
        machineCores: (busy * TICK_S) / seconds,
        machineBusyPct: total > 0 ? (100 * busy) / total : 0,
        serverMs: (server1 - server0) * TICK_S * 1000,
        postgresMs: pg * TICK_S * 1000,
        seconds,
      };
    },
  };
}

/** CPU time used so far (ms) by each process tree given, and by the backends of `database` (0 without one). */
export function cpuMs(pids: number[], database?: string): { trees: number[]; postgres: number } {
  const trees = pids.map((pid) => processTree(pid).reduce((s, p) => s + (procTicks(p)?.ticks ?? 0), 0) * TICK_S * 1000);
  let postgres = 0;
  if (database) for (const t of postgresTicks(database).values()) if (t.ours) postgres += t.ticks;
  return { trees, postgres: postgres * TICK_S * 1000 };
}
