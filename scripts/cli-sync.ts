/**
 * `cli sync`: runs one market-data sync job now (the scheduled job's domain function) and prints its JSON summary;
 * `cli sync status` lists the schedule and each kind's last run; `--kind trades --file` (a local copy) or `--flat-file`
 * (downloaded by date) imports the vendor's trades day file instead of calling the REST API (docs/market-data.md).
 */
import type { Db } from "../lib/db/client";
import { DomainError } from "../lib/domain/errors";
import { runMarketSync, SYNC_PROVIDERS, type SyncProvider } from "../lib/domain/market-sync";
import { importTradesFlatFile } from "../lib/domain/market-sync-flat-file";
import { marketSyncStatus } from "../lib/domain/market-sync-status";
import { parseSymbolList } from "../lib/market/sync-config";
import { isSyncKind, SYNC_KINDS } from "../lib/market/sync-schedule";

export const SYNC_USAGE = `
  sync --provider massive --kind ${SYNC_KINDS.join("|")} [--symbols A,B] [--date YYYY-MM-DD]
  sync --provider massive --kind trades --file YYYY-MM-DD.csv.gz [--date YYYY-MM-DD] [--symbols A,B]
  sync --provider massive --kind trades --flat-file --date YYYY-MM-DD [--symbols A,B]
  sync status`;

export interface SyncTools {
  flag(name: string): string | undefined;
  need(name: string): string;
  usage(message: string): Error;
}

/** Answers `sync …`, or undefined when the command is another one. */
export async function runSyncCommand(db: Db, words: readonly string[], tools: SyncTools): Promise<unknown> {
  if (words[0] !== "sync") return undefined;
  if (words[1] === "status" && words.length === 2) return marketSyncStatus(db);
  if (words.length > 1) throw tools.usage(`unexpected argument ${words[1]}`);
  const provider = tools.need("provider");
  if (!(SYNC_PROVIDERS as readonly string[]).includes(provider))
    throw tools.usage(`--provider must be one of ${SYNC_PROVIDERS.join(", ")}`);
  const kind = tools.need("kind");
  if (!isSyncKind(kind)) throw tools.usage(`--kind must be one of ${SYNC_KINDS.join(", ")}`);
  const date = tools.flag("date");
  if (date !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))))
    throw tools.usage("--date must be YYYY-MM-DD");
  let symbols: string[] | null;
  try {
    symbols = parseSymbolList(tools.flag("symbols"));
  } catch (err) {
    throw tools.usage(`--symbols: ${(err as Error).message}`);
  }
  const file = tools.flag("file");
  const download = tools.flag("flat-file") !== undefined;
  if ((file !== undefined || download) && kind !== "trades")
    throw tools.usage("--file and --flat-file are the trades flat file: only with --kind trades");
  if (file !== undefined && download) throw tools.usage("--file (a local copy) or --flat-file (download), not both");
  const summary =
    file !== undefined || download
      ? await importTradesFlatFile(db, { file, symbols, date, trigger: "cli" })
      : await runMarketSync(db, { kind, provider: provider as SyncProvider, symbols, date, trigger: "cli" });
  if (!summary.ok) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    throw new DomainError("unavailable", `sync ${kind} failed, nothing written: ${summary.error}`);
  }
  return summary;
}
