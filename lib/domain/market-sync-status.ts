/**
 * The sync schedule and each kind's last run (`cli sync status`, the admin overview's freshness table). Ages are
 * judged against the schedule: a kind is late when its newest applied run is older than its bound while its window
 * has been open since (outside sessions nothing is expected). Each kind's live data is also judged against its
 * staleness bound by the function the API uses, so the table shows what the API refuses.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { syncConfig } from "../market/sync-config";
import { curveAsOf, dailyBarAsOf, describeBound, staleReason } from "../market/staleness";
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

/** The kind's live data against its staleness bound, judged as the API judges it (lib/market/staleness.ts). */
export interface SyncKindData {
  /** The bound in words; null: the kind has none and the API never refuses on it. */
  bound: string | null;
  /** The oldest newest-as-of the API judges: per symbol for chain and bars, the store's for trades and treasury. */
  asOf: string | null;
  /** What the API refuses now: one entry per stale symbol (chain, bars) or one for the store, with its 503 message. */
  stale: { subject: string | null; message: string }[];
}

export interface SyncKindStatus extends Omit<ScheduleEntry, "lateAfterMs"> {
  timeZone: string;
  lateAfterMinutes: number;
  lastRun: SyncRunRecord | null;
  lastApplied: string | null;
  late: boolean;
  data: SyncKindData;
}

/**
 * Each kind's newest live as-of the API serves from: a symbol counts once it has a chain and a daily bar (without
 * either it has no analytics); trades are judged on the newest print over those symbols, as the options-flow route is.
 */
async function liveAsOf(db: Db): Promise<Record<SyncKind, { subject: string | null; asOf: Date }[]>> {
  const rows = await db.execute<{
    symbol: string;
    chain: string | null;
    bars: string | null;
    trades: string | null;
  }>(sql`
    select i.symbol,
      (select max(as_of)::text from option_quotes q where q.env = 'live' and q.symbol = i.symbol) as chain,
      (select max(ts)::text from bars b where b.env = 'live' and b.symbol = i.symbol and b.interval = '1d') as bars,
      (select max(ts)::text from option_trades t where t.env = 'live' and t.symbol = i.symbol) as trades
    from instruments i where i.env = 'live' order by i.symbol`);
  const [curve] = await db.execute<{ date: string | null }>(
    sql`select max(date)::text as date from treasury_yields where env = 'live'`,
  );
  const served = [...rows].filter((r) => r.chain && r.bars);
  const prints = served.flatMap((r) => (r.trades ? [new Date(r.trades).getTime()] : []));
  return {
    chain: served.map((r) => ({ subject: r.symbol, asOf: new Date(r.chain as string) })),
    bars: served.map((r) => ({ subject: r.symbol, asOf: dailyBarAsOf(new Date(r.bars as string)) })),
    trades: prints.length ? [{ subject: null, asOf: new Date(Math.max(...prints)) }] : [],
    dividends: [],
    treasury: curve?.date ? [{ subject: null, asOf: curveAsOf(curve.date) }] : [],
  };
}

function dataState(kind: SyncKind, judged: { subject: string | null; asOf: Date }[], now: Date): SyncKindData {
  const oldest = judged.reduce<Date | null>((o, j) => (o && o.getTime() <= j.asOf.getTime() ? o : j.asOf), null);
  return {
    bound: describeBound(kind),
    asOf: oldest?.toISOString() ?? null,
    stale: judged.flatMap((j) => {
      const message = staleReason(kind, j.asOf, now, j.subject ?? undefined);
      return message ? [{ subject: j.subject, message }] : [];
    }),
  };
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
  const judged = await liveAsOf(db);
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
        data: dataState(e.kind, judged[e.kind], now),
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
