/**
 * One market-data sync run (docs/market-data.md): fetch one kind from the provider, write it all-or-nothing through
 * the import path (import_runs row, version bump, derived-cache invalidation), recompute the changed days' snapshots.
 * The scheduled job, `cli sync` and the admin overview's `Run now` all call runMarketSync. A failed run writes nothing
 * but its import_runs row (status 'failed', the reason) and a log line; neither ever contains the API key.
 */
import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { importRuns } from "../../db/schema";
import type { Db } from "../db/client";
import { newYorkDate } from "../analytics/exchange-calendar";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { snapshotsAfterImport } from "../engine/history";
import { type WriteSource, writeRows } from "../market/import/write";
import { formatImportError, type ImportKind, type KindRow } from "../market/import/types";
import { MassiveClient, VendorError, type VendorFailure } from "../market/massive/client";
import {
  fetchBars,
  fetchChains,
  fetchDividends,
  fetchInstruments,
  fetchTrades,
  fetchTreasury,
} from "../market/massive/fetch";
import type { Mapped } from "../market/massive/map";
import { dayWindowNs, tradeContracts } from "../market/massive/trade-contracts";
import { parseSymbolList, type SyncConfig, syncConfig } from "../market/sync-config";
import type { SyncKind } from "../market/sync-schedule";
import { DomainError } from "./errors";

export const SYNC_PROVIDERS = ["massive"] as const;
export type SyncProvider = (typeof SYNC_PROVIDERS)[number];

export interface SyncRequest {
  kind: SyncKind;
  provider?: SyncProvider;
  /** Default MARKET_DATA_SYMBOLS, else the live instruments. */
  symbols?: string[] | null;
  /** New York date the run is for (bars, dividends from, trades of); default today in New York. */
  date?: string;
  /** Who asked: recorded in the log line. */
  trigger: "schedule" | "cli" | "admin";
  now?: Date;
}

export interface SyncSummary {
  ok: boolean;
  provider: SyncProvider;
  kind: SyncKind;
  env: "live";
  date: string;
  symbols: string[];
  /** Rows the vendor answered, before skipping. */
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows skipped by the documented rules: reason → count. */
  skipped: Record<string, number>;
  instrumentsCreated: string[];
  durationMs: number;
  error: string | null;
  failure: VendorFailure | "rejected" | null;
  /** For a 429: how long the vendor asked to wait (the queue retries after it). */
  retryAfterMs: number | null;
}

const BARS_LOOKBACK_DAYS = 10;
const DIVIDENDS_LOOKBACK_DAYS = 400;
const daysBefore = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

async function liveSymbols(db: Db): Promise<string[]> {
  const rows = await db.execute<{ symbol: string }>(
    sql`select symbol from instruments where env = 'live' order by symbol`,
  );
  return [...rows].map((r) => r.symbol);
}

/** The kind's rows from the vendor (skips counted), for `symbols` on `date`. */
async function fetchKind(
  db: Db,
  client: MassiveClient,
  config: SyncConfig,
  kind: SyncKind,
  symbols: string[],
  date: string,
): Promise<Mapped<KindRow<ImportKind>>> {
  switch (kind) {
    case "chain":
      return fetchChains(client, symbols);
    case "bars":
      return fetchBars(client, symbols, daysBefore(date, BARS_LOOKBACK_DAYS), date);
    case "dividends":
      return fetchDividends(client, symbols, daysBefore(date, DIVIDENDS_LOOKBACK_DAYS));
    case "trades": {
      const { contracts, quoteAt } = await tradeContracts(db, symbols, date, config.MARKET_DATA_TRADES_CONTRACTS);
      return fetchTrades(client, contracts, dayWindowNs(date), quoteAt);
    }
    case "treasury": {
      if (!config.TREASURY_CSV_URL) throw new DomainError("invalid", "TREASURY_CSV_URL is not set");
      return { rows: await fetchTreasury(config.TREASURY_CSV_URL), skipped: {} };
    }
  }
}

/** Creates the instruments the store lacks from the vendor's ticker reference (its own import run). */
async function ensureInstruments(db: Db, client: MassiveClient, symbols: string[]): Promise<string[]> {
  const known = new Set(await liveSymbols(db));
  const missing = symbols.filter((s) => !known.has(s));
  if (!missing.length) return [];
  const rows = await fetchInstruments(client, missing);
  const sha256 = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
  const result = await writeRows(db, "instruments", rows, "live", {
    source: { fileName: "massive:tickers", sha256, origin: "massive", startedAt: Date.now() },
  });
  if (!result.ok)
    throw new VendorError("malformed", `ticker reference rejected: ${formatImportError(result.errors[0])}`);
  return missing;
}

/** An import_runs row written outside writeRows: a failed run, or an applied one with no rows. */
async function recordRun(
  db: Db,
  kind: SyncKind,
  source: WriteSource,
  status: "ok" | "failed",
  error: string | null,
): Promise<void> {
  await db.insert(importRuns).values({
    env: "live",
    kind,
    fileName: source.fileName,
    sha256: source.sha256,
    rows: source.rows ?? 0,
    status,
    source: source.origin ?? "massive",
    durationMs: source.startedAt === undefined ? null : Date.now() - source.startedAt,
    error: error ?? source.note ?? null,
  });
}

const describeSkips = (skipped: Record<string, number>) =>
  Object.entries(skipped)
    .map(([reason, n]) => `${n} skipped: ${reason}`)
    .join("; ");

export async function runMarketSync(db: Db, req: SyncRequest, config: SyncConfig = syncConfig()): Promise<SyncSummary> {
  const provider = req.provider ?? config.MARKET_DATA_PROVIDER ?? "massive";
  if (!config.MASSIVE_API_KEY) throw new DomainError("invalid", "MASSIVE_API_KEY is not set");
  const started = Date.now();
  const summary = newSummary(provider, req.kind, req.date ?? newYorkDate(req.now ?? new Date()));
  const client = new MassiveClient({ baseUrl: config.MASSIVE_BASE_URL, apiKey: config.MASSIVE_API_KEY });
  const fileName = `${provider}:${req.kind}`;
  try {
    if (req.kind !== "treasury") {
      summary.symbols = await syncSymbols(db, req.symbols, config);
      summary.instrumentsCreated = await ensureInstruments(db, client, summary.symbols);
    }
    const mapped = await fetchKind(db, client, config, req.kind, summary.symbols, summary.date);
    await applyRun(db, summary, { fileName, startedAt: started }, mapped);
  } catch (err) {
    await failRun(db, summary, { fileName, startedAt: started }, err, [config.MASSIVE_API_KEY]);
  }
  return finishRun(summary, req.trigger, started);
}

/** A run's summary before it starts: nothing fetched, not ok. */
export function newSummary(provider: SyncProvider, kind: SyncKind, date: string): SyncSummary {
  return {
    ok: false,
    provider,
    kind,
    env: "live",
    date,
    symbols: [],
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    skipped: {},
    instrumentsCreated: [],
    durationMs: 0,
    error: null,
    failure: null,
    retryAfterMs: null,
  };
}

/** The symbols a run reads: the request's, else MARKET_DATA_SYMBOLS, else the live instruments; none is an error. */
export async function syncSymbols(db: Db, requested: string[] | null | undefined, config: SyncConfig) {
  const symbols = requested ?? parseSymbolList(config.MARKET_DATA_SYMBOLS) ?? (await liveSymbols(db));
  if (!symbols.length) throw new DomainError("invalid", "no symbols: set MARKET_DATA_SYMBOLS or pass --symbols");
  return symbols;
}

/** Where a run's rows came from, for its import_runs row. */
export interface RunSource {
  fileName: string;
  startedAt: number;
}

/**
 * Writes a run's mapped rows all-or-nothing through writeRows (rows, import_runs, version bump), then recomputes the
 * changed days' snapshots. `fetched` is every row read: the rows kept plus the rows skipped.
 */
export async function applyRun(
  db: Db,
  summary: SyncSummary,
  run: RunSource,
  mapped: Mapped<KindRow<ImportKind>>,
): Promise<void> {
  summary.skipped = mapped.skipped;
  summary.fetched = mapped.rows.length + Object.values(mapped.skipped).reduce((a, b) => a + b, 0);
  const sha256 = createHash("sha256").update(JSON.stringify(mapped.rows)).digest("hex");
  const source = {
    ...run,
    sha256,
    rows: summary.fetched,
    origin: summary.provider,
    note: describeSkips(mapped.skipped) || undefined,
  };
  const result = await writeRows(db, summary.kind, mapped.rows, "live", { source });
  // Nothing to write is still a run (the freshness table shows it): writeRows records none for no rows.
  if (result.ok && mapped.rows.length === 0) await recordRun(db, summary.kind, source, "ok", null);
  if (!result.ok) {
    summary.failure = "rejected";
    throw new Error(
      `${result.errors.length} row(s) rejected, nothing written; first: ${formatImportError(result.errors[0])}`,
    );
  }
  Object.assign(summary, { ok: true, inserted: result.inserted, updated: result.updated, unchanged: result.unchanged });
  await snapshotsAfterImport(db, "live", result.changedFrom ?? null);
}

/**
 * Records a failed run (its import_runs row says why, with every key in `secrets` masked). A DomainError before any symbol was
 * chosen (no key, no symbols) is the caller's mistake, not a run: it is thrown on.
 */
export async function failRun(
  db: Db,
  summary: SyncSummary,
  run: RunSource,
  err: unknown,
  secrets: readonly (string | undefined)[],
): Promise<void> {
  if (err instanceof DomainError && summary.symbols.length === 0 && summary.kind !== "treasury") throw err;
  let message = (err as Error).message;
  for (const secret of secrets) if (secret) message = message.replaceAll(secret, "***");
  summary.error = message;
  if (err instanceof VendorError) {
    summary.failure = err.failure;
    summary.retryAfterMs = err.retryAfterMs ?? null;
  }
  const source = { ...run, sha256: "", rows: summary.fetched, origin: summary.provider };
  await recordRun(db, summary.kind, source, "failed", summary.error);
}

/** Logs the run's end (never a key) and counts it in the ingestion metrics. */
export function finishRun(summary: SyncSummary, trigger: string, started: number): SyncSummary {
  summary.durationMs = Date.now() - started;
  const fields = {
    kind: summary.kind,
    trigger,
    provider: summary.provider,
    date: summary.date,
    ms: summary.durationMs,
    rows: summary.fetched,
  };
  if (summary.ok) log.info("market sync applied", { ...fields, inserted: summary.inserted, updated: summary.updated });
  else log.warn("market sync failed", { ...fields, failure: summary.failure, error: summary.error });
  return counted(summary);
}

/** The run in the ingestion metrics (market_sync_*): every trigger's runs, failures by reason. */
function counted(summary: SyncSummary): SyncSummary {
  const failure = summary.ok ? null : (summary.failure ?? "error");
  metrics.marketSync.ran(summary.kind, failure, summary.durationMs / 1000);
  return summary;
}
