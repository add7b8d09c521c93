/** Shared shapes of the market-data import path (CSV files and provider feeds). */
import type {
  Bar,
  CashDividendRow,
  Instrument,
  MarketEnv,
  OptionQuote,
  OptionTrade,
  TreasuryYield,
} from "../../analytics/types";

export const IMPORT_KINDS = ["instruments", "treasury", "bars", "chain", "trades", "dividends"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export function isImportKind(value: string): value is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(value);
}

/** The typed row each kind stores (without `env`). `chain` rows are option quotes. */
export interface KindRows {
  instruments: Instrument;
  treasury: TreasuryYield;
  bars: Bar;
  chain: OptionQuote;
  trades: OptionTrade;
  dividends: CashDividendRow;
}
export type KindRow<K extends ImportKind> = KindRows[K];

/** One problem with the input. `line` is the 1-based file line (CSV) or 1-based row index (provider rows). */
export interface ImportError {
  line: number;
  reason: string;
}

export interface ImportReport {
  kind: ImportKind;
  env: MarketEnv;
  /** File name recorded in import_runs (the base name of the path unless given). */
  file: string;
  /** Data rows read from the file (header and blank lines excluded), good or bad. */
  rows: number;
  /** Stored records created / changed / already identical. For treasury one record per date x tenor. */
  inserted: number;
  updated: number;
  unchanged: number;
  /** Every problem found, in line order; non-empty exactly when nothing was written. */
  errors: ImportError[];
  /** The earliest New York date whose daily snapshots the import changed (null: nothing changed). */
  changedFrom?: string | null;
  ok: boolean;
}

export interface ImportOptions {
  env?: MarketEnv;
  fileName?: string;
}

/** Cells of one CSV record keyed by normalized header name (trimmed, lower-case, single spaces). */
export type Cells = Record<string, string>;

/** How one kind is read from CSV and validated; pure, no database. */
export interface KindSpec<R> {
  kind: ImportKind;
  /** Header names as documented (matched case-insensitively, surrounding spaces ignored). */
  required: readonly string[];
  optional: readonly string[];
  /** Extra header rule on normalized names; returns a reason or null. */
  checkHeader?(present: readonly string[]): string | null;
  /** Converts one record's cells to rows (treasury: one per non-blank tenor); errors are reasons. */
  parse(cells: Cells): { rows: R[]; errors: string[] };
  /** Invariants every stored row must satisfy, from CSV or a provider; `cells` only improves messages. */
  check(row: R, cells?: Cells): string[];
  /** Primary key within an environment, and how to name it in a duplicate message. */
  key(row: R): string;
  describeKey(row: R): string;
  /** The symbol that must exist in `instruments` first (kinds that reference one). */
  symbol?(row: R): string;
  /** Time of the row, for providers' `since` filter; null when the kind is not time-based. */
  time(row: R): Date | null;
}

export function formatImportError(e: ImportError): string {
  return `line ${e.line}: ${e.reason}`;
}
