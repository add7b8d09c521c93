/**
 * The trades job from Massive's day file instead of the REST API (docs/market-data.md "Trades from the flat file"):
 * `us_options_opra/trades_v1/YYYY/MM/YYYY-MM-DD.csv.gz`, a local copy (`--file`) or downloaded by date from the
 * vendor's S3 endpoint with the S3 keys (`--flat-file`). The file is streamed; the configured underlyings' prints pass the same
 * checks and condition mapping as the REST prints (tradeRows), take the quote of the nearest stored snapshot, and are
 * written all-or-nothing through the same run steps (import_runs row with source 'massive', version bump, snapshots).
 * Needs no REST key: the instruments come from the chain job, which also stored the quotes the prints need.
 */
import "server-only";
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import type { OptionTrade } from "../analytics/types";
import type { Db } from "../db/client";
import { type Mapped, tradeRows } from "../market/massive/map";
import { dayWindowNs, quotesForContracts } from "../market/massive/trade-contracts";
import { downloadFlatFile } from "../market/massive/flat-file-download";
import { readTradesFlatFile, tradesFlatFileKey } from "../market/massive/trades-flat-file";
import { type SyncConfig, syncConfig } from "../market/sync-config";
import { DomainError } from "./errors";
import { applyRun, failRun, finishRun, newSummary, type SyncSummary, syncSymbols } from "./market-sync";

export interface FlatFileRequest {
  /** A local copy of the day file (gzip); without it the file of `date` is downloaded. */
  file?: string;
  /** The file's New York date; with a local file, default the date in its name (…/2024-03-07.csv.gz). */
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
async function mapPrints(db: Db, source: Readable, symbols: string[], date: string): Promise<Mapped<OptionTrade>> {
  const read = await readTradesFlatFile(source, {
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

/** Where the file comes from: the local copy (checked before the run starts), or a download opened inside the run. */
async function fileSource(req: FlatFileRequest, config: SyncConfig) {
  if (req.file) {
    const file = req.file;
    const date = flatFileDate(file, req.date);
    try {
      if (!(await stat(file)).isFile()) throw new Error("not a file");
    } catch (err) {
      throw new DomainError("invalid", `cannot read ${file}: ${(err as Error).message}`);
    }
    const fileName = `massive:flat-file:us_options_opra/trades_v1/${basename(file)}`;
    return { date, fileName, open: async (): Promise<Readable> => createReadStream(file) };
  }
  const { MASSIVE_S3_ACCESS_KEY_ID: accessKeyId, MASSIVE_S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!accessKeyId || !secretAccessKey)
    throw new DomainError(
      "invalid",
      "MASSIVE_S3_ACCESS_KEY_ID and MASSIVE_S3_SECRET_ACCESS_KEY are not set: pass --file",
    );
  if (!req.date || !/^\d{4}-\d{2}-\d{2}$/.test(req.date))
    throw new DomainError("invalid", "the download needs --date YYYY-MM-DD");
  const key = tradesFlatFileKey(req.date);
  const credentials = { accessKeyId, secretAccessKey, region: config.MASSIVE_S3_REGION };
  return {
    date: req.date,
    fileName: `massive:flat-file:${key}`,
    open: () => downloadFlatFile(key, { baseUrl: config.MASSIVE_FLATFILES_URL, credentials }),
  };
}

export async function importTradesFlatFile(
  db: Db,
  req: FlatFileRequest,
  config: SyncConfig = syncConfig(),
): Promise<SyncSummary> {
  const source = await fileSource(req, config);
  const started = Date.now();
  const summary = newSummary("massive", "trades", source.date);
  const run = { fileName: source.fileName, startedAt: started };
  try {
    summary.symbols = await syncSymbols(db, req.symbols, config);
    await applyRun(db, summary, run, await mapPrints(db, await source.open(), summary.symbols, source.date));
  } catch (err) {
    const secrets = [config.MASSIVE_API_KEY, config.MASSIVE_S3_ACCESS_KEY_ID, config.MASSIVE_S3_SECRET_ACCESS_KEY];
    await failRun(db, summary, run, err, secrets);
  }
  return finishRun(summary, req.trigger, started);
}
