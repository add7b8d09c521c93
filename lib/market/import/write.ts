/**
 * The single validated write path for market data, used by CSV imports and provider feeds alike:
 * check every row (invariants, duplicate keys, known symbols), and only if all pass, upsert everything,
 * record an import_runs row and bump the environment's market-data version — in ONE transaction.
 */
import { createHash } from "node:crypto";
import { importRuns, instrumentExerciseStyles } from "../../../db/schema";
import { and, eq, getTableName, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { Bar, Instrument, MarketEnv, OptionQuote, TreasuryYield } from "../../analytics/types";
import { invalidateIvHistory } from "../iv-history-store";
import { newYorkDate } from "../../analytics/exchange-calendar";
import { bumpMarketVersion } from "../versions";
import { ANALYZE_AFTER_ROWS, analyzeTables } from "../store-bulk";
import { specFor } from "./kinds";
import { findUnknownSymbols } from "./known-symbols";
import { KIND_TABLES, type KindTable } from "./tables";
import { upsertRows, type Tx, type UpsertCounts } from "./upsert";
import { checkRows, sortErrors } from "./validate";
import type { ImportError, ImportKind, KindRow } from "./types";

export interface WriteSource {
  /** Recorded in import_runs.file_name, e.g. the CSV's base name or "provider:acme". */
  fileName: string;
  /** sha256 (hex) of the source; for in-memory rows, of their JSON. */
  sha256: string;
  /** Rows read from the source (import_runs.rows); defaults to the number of rows written. */
  rows?: number;
  /** import_runs.source: 'csv' (default) or the provider's name. */
  origin?: string;
  /** When the run started (epoch ms): import_runs.duration_ms is measured to the write's end. */
  startedAt?: number;
  /** What the run skipped, recorded in import_runs.error of an applied run. */
  note?: string;
}

export interface WriteOptions {
  /** Source line of each row, for error messages; otherwise errors cite the 1-based row index. */
  lines?: readonly number[];
  source?: WriteSource;
}

export interface WriteResult extends UpsertCounts {
  ok: boolean;
  errors: ImportError[];
  /** The earliest New York date whose derived daily snapshots the write changed (null: nothing changed). */
  changedFrom?: string | null;
}

const nothing = (errors: ImportError[]): WriteResult => ({ ok: false, inserted: 0, updated: 0, unchanged: 0, errors });

export async function writeRows<K extends ImportKind>(
  db: Db,
  kind: K,
  rows: readonly KindRow<K>[],
  env: MarketEnv = "live",
  opts: WriteOptions = {},
): Promise<WriteResult> {
  // Nothing to write is not an error here (a feed with nothing new); CSV files with no data rows are rejected earlier.
  if (rows.length === 0) return { ok: true, inserted: 0, updated: 0, unchanged: 0, errors: [] };
  const spec = specFor(kind);
  const invalid = checkRows(spec, rows, opts.lines);
  const result = await db.transaction(async (tx): Promise<WriteResult> => {
    const unknown = await findUnknownSymbols(tx, spec, rows, env, opts.lines);
    const errors = sortErrors([...invalid, ...unknown]);
    if (errors.length) return nothing(errors);
    const target = KIND_TABLES[kind] as KindTable<KindRow<K>>;
    const values = rows.map((r) => target.values(r, env));
    const counts = await upsertRows(tx, target.table, target.keyProps, values);
    if (kind === "instruments") await writeExerciseStyles(tx, rows as readonly Instrument[], env);
    await invalidateDerived(tx, kind, rows, env);
    const source = opts.source ?? {
      fileName: `(${kind} rows)`,
      sha256: createHash("sha256").update(JSON.stringify(rows)).digest("hex"),
    };
    await tx.insert(importRuns).values({
      env,
      kind,
      fileName: source.fileName,
      sha256: source.sha256,
      rows: source.rows ?? rows.length,
      source: source.origin ?? "csv",
      durationMs: source.startedAt === undefined ? null : Date.now() - source.startedAt,
      error: source.note ?? null,
    });
    await bumpMarketVersion(tx, env);
    const changedFrom = counts.inserted + counts.updated > 0 ? earliestDay(kind, rows) : null;
    return { ok: true, ...counts, errors: [], changedFrom };
  });
  if (result.inserted + result.updated >= ANALYZE_AFTER_ROWS)
    await analyzeTables(db, [getTableName(KIND_TABLES[kind].table)]);
  return result;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The first day a write can change a daily snapshot of; an instrument (dividend, style, name) changes every day. */
function earliestDay<K extends ImportKind>(kind: K, rows: readonly KindRow<K>[]): string {
  const dates = (rows as readonly object[]).map((r) =>
    "asOf" in r && r.asOf instanceof Date
      ? newYorkDate(r.asOf)
      : "ts" in r && r.ts instanceof Date
        ? kind === "trades"
          ? newYorkDate(r.ts)
          : isoDay(r.ts) // daily bars start at 00:00 UTC of their session date
        : "date" in r && typeof r.date === "string"
          ? r.date
          : "0000-01-01",
  );
  return kind === "instruments" ? "0000-01-01" : dates.sort()[0];
}

/** An instrument row with an exercise style stores it; one without drops any stored one (back to by-kind). */
async function writeExerciseStyles(tx: Tx, rows: readonly Instrument[], env: MarketEnv): Promise<void> {
  const styled = rows.filter((r) => r.exerciseStyle !== undefined);
  const unstyled = rows.filter((r) => r.exerciseStyle === undefined).map((r) => r.symbol);
  if (unstyled.length)
    await tx
      .delete(instrumentExerciseStyles)
      .where(and(eq(instrumentExerciseStyles.env, env), inArray(instrumentExerciseStyles.symbol, unstyled)));
  if (styled.length)
    await upsertRows(
      tx,
      instrumentExerciseStyles,
      ["env", "symbol"],
      styled.map((r) => ({ env, symbol: r.symbol, exerciseStyle: r.exerciseStyle })),
    );
}

/** Cached daily ATM IVs depend on chains, closes, curves and dividend yields: drop those this write rewrote. */
async function invalidateDerived<K extends ImportKind>(
  tx: Tx,
  kind: K,
  rows: readonly KindRow<K>[],
  env: MarketEnv,
): Promise<void> {
  if (kind === "chain") {
    const pairs = new Map(
      (rows as readonly OptionQuote[]).map((q) => [
        `${q.symbol}|${isoDay(q.asOf)}`,
        { symbol: q.symbol, date: isoDay(q.asOf) },
      ]),
    );
    await invalidateIvHistory(tx, env, { symbolDates: [...pairs.values()] });
  } else if (kind === "bars") {
    const pairs = new Map(
      (rows as readonly Bar[])
        .filter((b) => b.interval === "1d")
        .map((b) => [`${b.symbol}|${isoDay(b.ts)}`, { symbol: b.symbol, date: isoDay(b.ts) }]),
    );
    await invalidateIvHistory(tx, env, { symbolDates: [...pairs.values()] });
  } else if (kind === "treasury") {
    await invalidateIvHistory(tx, env, { dates: [...new Set((rows as readonly TreasuryYield[]).map((y) => y.date))] });
  } else if (kind === "instruments") {
    await invalidateIvHistory(tx, env, { symbols: (rows as readonly Instrument[]).map((i) => i.symbol) });
  }
}
