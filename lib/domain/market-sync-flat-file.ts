/**
 * The trades job from Massive's day file instead of the REST API (docs/market-data.md "Trades from the flat file"):
 * an operator downloads `us_options_opra/trades_v1/YYYY/MM/YYYY-MM-DD.csv.gz` from the vendor's S3 endpoint and
 * `cli sync --kind trades --file …` imports it. The file is streamed; the configured underlyings' prints pass the same
 * checks and condition mapping as the REST prints (tradeRows), take the quote of the nearest stored snapshot, and are
 * written all-or-nothing through the same run steps (import_runs row with source 'massive', version bump, snapshots).
 * Needs no REST key: the instruments come from the chain job, which also stored the quotes the prints need.
 */
import "server-only";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { OptionTrade } from "../analytics/types";
import type { Db } from "../db/client";
import { type Mapped, tradeRows } from "../market/massive/map";
import { dayWindowNs, quotesForContracts } from "../market/massive/trade-contracts";
import { readTradesFlatFile } from "../market/massive/trades-flat-file";
import { type SyncConfig, syncConfig } from "../market/sync-config";
import { DomainError } from "./errors";
import { applyRun, failRun, finishRun, newSummary, type SyncSummary, syncSymbols } from "./market-sync";

export interface FlatFileRequest {
  /** A local copy of the day file (gzip). */
  file: string;
  /** The file's New York date; default the date in its name (…/2024-03-07.csv.gz). */
  date?: string;
  symbols?: string[] | null;
  trigger: "cli" | "admin";
}

const DATED_NAME = /(\d{4}-\d{2}-\d{2})\.csv\.gz$/;

/** The date the import is for: the request's, which must agree with the file's name when that carries one. */
export function flatFileDate(file: string, date: string | undefined): string {
  const named = DATED_NAME.exec(basename(file))?.[1];
  if (date && named && date !== named)
    throw new DomainError("invalid", `--date ${date} disagrees with the file's name (${named})`);
  const chosen = date ?? named;
  if (!chosen) throw new DomainError("invalid", "the file's name carries no date (YYYY-MM-DD.csv.gz): pass --date");
  return chosen;
}

/** Maps the kept prints underlying by underlying with the REST rules, merging the reader's skip counts. */
async function mapPrints(db: Db, file: string, symbols: string[], date: string): Promise<Mapped<OptionTrade>> {
  const read = await readTradesFlatFile(createReadStream(file), {
    symbols: new Set(symbols),
    window: dayWindowNs(date),
  });
  const tickers = [...read.trades.values()].flatMap((list) => list.map((t) => t.ticker as string));
  const quoteAt = await quotesForContracts(db, tickers, date);
  const out: Mapped<OptionTrade> = { rows: [], skipped: { ...read.skipped } };
  for (const [symbol, trades] of read.trades) {
    const m = tradeRows(symbol, trades, quoteAt);
    for (const row of m.rows) out.rows.push(row);
    for (const [reason, n] of Object.entries(m.skipped)) out.skipped[reason] = (out.skipped[reason] ?? 0) + n;
  }
  return out;
}

export async function importTradesFlatFile(
  db: Db,
  req: FlatFileRequest,
  config: SyncConfig = syncConfig(),
): Promise<SyncSummary> {
  const date = flatFileDate(req.file, req.date);
  try {
    if (!(await stat(req.file)).isFile()) throw new Error("not a file");
  } catch (err) {
    throw new DomainError("invalid", `cannot read ${req.file}: ${(err as Error).message}`);
  }
  const started = Date.now();
  const summary = newSummary("massive", "trades", date);
  const run = { fileName: `massive:flat-file:us_options_opra/trades_v1/${basename(req.file)}`, startedAt: started };
  try {
    summary.symbols = await syncSymbols(db, req.symbols, config);
    await applyRun(db, summary, run, await mapPrints(db, req.file, summary.symbols, date));
  } catch (err) {
    await failRun(db, summary, run, err, config.MASSIVE_API_KEY);
  }
  return finishRun(summary, req.trigger, started);
}
