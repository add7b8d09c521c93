/**
 * The sync schedule and each kind's last run (`cli sync status`, the admin overview's freshness table). Ages are
 * judged against the schedule: a kind is late when its newest applied run is older than its bound while its window
 * has been open since (outside sessions nothing is expected).
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { syncConfig } from "../market/sync-config";
import { expectedAsOf, type ScheduleEntry, SYNC_TZ, type SyncKind, syncSchedule } from "../market/sync-schedule";
import { type Actor, recordAudit } from "./audit";
import { runMarketSync, type SyncSummary } from "./market-sync";

export interface SyncRunRecord {
  at: string;
  status: "ok" | "failed";
  rows: number;
  durationMs: number | null;
  error: string | null;
}

export interface SyncKindStatus extends Omit<ScheduleEntry, "lateAfterMs"> {
  timeZone: string;
  lateAfterMinutes: number;
  lastRun: SyncRunRecord | null;
  lastApplied: string | null;
  late: boolean;
}

export interface SyncStatus {
  provider: string | null;
  /** The vendor host runs go to (never the key). */
  baseUrl: string;
  keySet: boolean;
  kinds: SyncKindStatus[];
}

export async function marketSyncStatus(db: Db, now = new Date()): Promise<SyncStatus> {
  const config = syncConfig();
  const schedule = syncSchedule(config.MARKET_DATA_CRON);
  const rows = await db.execute<{
    kind: string;
    created_at: string;
    status: "ok" | "failed";
    rows: number;
    duration_ms: number | null;
    error: string | null;
    applied: string | null;
  }>(sql`
    select distinct on (kind) kind, created_at::text, status, rows, duration_ms, error,
      (select max(created_at)::text from import_runs a where a.env = 'live' and a.kind = r.kind and a.status = 'ok') as applied
    from import_runs r where env = 'live' and source <> 'csv'
    order by kind, created_at desc, id desc`);
  const byKind = new Map([...rows].map((r) => [r.kind, r]));
  const expected = expectedAsOf(now).getTime();
  return {
    provider: config.MARKET_DATA_PROVIDER ?? null,
    baseUrl: config.MASSIVE_BASE_URL,
    keySet: Boolean(config.MASSIVE_API_KEY),
    kinds: schedule.map(({ lateAfterMs, ...e }) => {
      const r = byKind.get(e.kind);
      const applied = r?.applied ? new Date(r.applied) : null;
      const reference = e.window === "always" ? now.getTime() : expected;
      return {
        ...e,
        timeZone: SYNC_TZ,
        lateAfterMinutes: Math.round(lateAfterMs / 60_000),
        lastRun: r
          ? {
              at: new Date(r.created_at).toISOString(),
              status: r.status,
              rows: r.rows,
              durationMs: r.duration_ms,
              error: r.error,
            }
          : null,
        lastApplied: applied?.toISOString() ?? null,
        late: !applied || reference - applied.getTime() > lateAfterMs,
      };
    }),
  };
}

/** The admin overview's `Run now`: one sync of `kind` at once, audited as `market_sync.run` (what ran, not the key). */
export async function runMarketSyncNow(db: Db, kind: SyncKind, actor: Actor): Promise<SyncSummary> {
  const summary = await runMarketSync(db, { kind, trigger: "admin" });
  await recordAudit(db, {
    actor,
    action: "market_sync.run",
    target: `market_sync:${kind}`,
    after: { ok: summary.ok, rows: summary.fetched, failure: summary.failure },
  });
  return summary;
}
