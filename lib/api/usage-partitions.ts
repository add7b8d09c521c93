/**
 * Keeps usage_events' daily partitions (migration usage_events_partitioned): creates them ahead of time, moves any rows
 * the default partition caught into their day, and drops whole days past USAGE_EVENTS_RETENTION_DAYS. Runs at start and
 * daily in every process; an advisory lock makes concurrent processes take turns.
 */
import type postgres from "postgres";
import { errorFields, log } from "../log";

const LOCK = 727_003;
const DAY_MS = 86_400_000;
export const DAYS_AHEAD = 7;
const NAME = /^usage_events_p(\d{4})(\d{2})(\d{2})$/;

export const partitionName = (day: Date) => `usage_events_p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
const utcDay = (t: number) => new Date(Math.floor(t / DAY_MS) * DAY_MS);

export interface MaintenanceResult {
  created: string[];
  dropped: string[];
}

/** One pass: partitions for today through DAYS_AHEAD days ahead, and none older than `retentionDays` full days. */
export async function maintainUsagePartitions(
  sql: postgres.Sql,
  retentionDays: number,
  now = new Date(),
): Promise<MaintenanceResult> {
  const result: MaintenanceResult = { created: [], dropped: [] };
  const today = utcDay(now.getTime());
  const oldestKept = new Date(today.getTime() - retentionDays * DAY_MS);
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK})`;
    const existing = new Set(
      (
        await tx`
      select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'usage_events'::regclass`
      ).map((r) => r.relname as string),
    );
    for (let d = 0; d <= DAYS_AHEAD; d++) {
      const from = new Date(today.getTime() + d * DAY_MS);
      const name = partitionName(from);
      if (existing.has(name)) continue;
      const to = new Date(from.getTime() + DAY_MS);
      // Rows the default partition caught for this day move into it first, so attaching cannot conflict.
      await tx.unsafe(`create table "${name}" (like usage_events including defaults including constraints)`);
      await tx`with moved as (delete from usage_events_default where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz returning *)
        insert into ${tx(name)} select * from moved`;
      await tx.unsafe(
        `alter table usage_events attach partition "${name}" for values from ('${from.toISOString()}') to ('${to.toISOString()}')`,
      );
      result.created.push(name);
    }
    for (const name of existing) {
      const m = NAME.exec(name);
      if (!m || Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) >= oldestKept.getTime()) continue;
      await tx.unsafe(`drop table "${name}"`);
      result.dropped.push(name);
    }
    await tx`delete from usage_events_default where created_at < ${oldestKept.toISOString()}::timestamptz`;
  });
  return result;
}

/** Runs a pass now and then daily (timer does not keep the process alive); failures are logged and retried next time. */
export function startUsagePartitionMaintenance(sql: postgres.Sql, retentionDays: number): () => void {
  const pass = () =>
    maintainUsagePartitions(sql, retentionDays).then(
      (r) => (r.created.length || r.dropped.length) && log.info("usage partitions maintained", { ...r }),
      (err) => log.error("usage partition maintenance failed", errorFields(err)),
    );
  void pass();
  const timer = setInterval(pass, DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
