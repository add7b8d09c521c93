/**
 * Market-data providers: anything that can supply typed rows of the import kinds. A licensed vendor feed
 * implements `MarketDataProvider`; `importFromProvider` sends its rows through the same validated,
 * all-or-nothing write path as CSV files (`writeRows`), so analytics never needs to know the source.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Db } from "../db/client";
import type { MarketEnv } from "../analytics/types";
import { specFor } from "./import/kinds";
import { parseCsvText } from "./import/parse";
import { formatImportError, type ImportError, type ImportKind, type KindRow } from "./import/types";
import { writeRows, type WriteResult } from "./import/write";

export interface MarketDataProvider {
  /** Stable identifier, recorded in import_runs as "provider:<name>". */
  readonly name: string;
  /** The kinds this provider can supply. */
  readonly kinds: readonly ImportKind[];
  /**
   * Rows of one kind, in pages (a vendor's API pages, a file, …). `since`: only rows at or after this time
   * (bars ts, chain as_of, trades timestamp, treasury date); kinds without a time (instruments) ignore it.
   */
  fetch<K extends ImportKind>(kind: K, since?: Date): AsyncIterable<readonly KindRow<K>[]>;
}

/** Thrown by a provider whose source data is invalid; carries every problem found. */
export class ProviderDataError extends Error {
  constructor(
    readonly source: string,
    readonly errors: ImportError[],
  ) {
    super(`${source}: ${errors.length} invalid row(s); first: ${errors.slice(0, 3).map(formatImportError).join("; ")}`);
  }
}

/** Whether a row falls at or after `since` (always true for kinds without a time). */
export function isSince<K extends ImportKind>(kind: K, row: KindRow<K>, since?: Date): boolean {
  if (!since) return true;
  const t = specFor(kind).time(row);
  return t === null || t.getTime() >= since.getTime();
}

/** Serves rows from CSV files in the documented import layouts (one or more files per kind). */
export class CsvFileProvider implements MarketDataProvider {
  readonly kinds: readonly ImportKind[];
  private readonly files: Partial<Record<ImportKind, readonly string[]>>;

  constructor(
    files: Partial<Record<ImportKind, string | readonly string[]>>,
    readonly name = "csv-files",
  ) {
    this.files = Object.fromEntries(
      Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? [v] : (v ?? [])]),
    );
    this.kinds = (Object.keys(this.files) as ImportKind[]).filter((k) => (this.files[k]?.length ?? 0) > 0);
  }

  async *fetch<K extends ImportKind>(kind: K, since?: Date): AsyncIterable<readonly KindRow<K>[]> {
    for (const path of this.files[kind] ?? []) {
      const parsed = parseCsvText(kind, await readFile(path, "utf8"));
      if (parsed.errors.length) throw new ProviderDataError(basename(path), parsed.errors);
      yield parsed.rows.filter((row) => isSince(kind, row, since));
    }
  }
}

/**
 * Pulls one kind from a provider and writes it all-or-nothing (one transaction, import_runs row, version
 * bump). Errors cite the 1-based index of the row across all pages.
 */
export async function importFromProvider<K extends ImportKind>(
  db: Db,
  provider: MarketDataProvider,
  kind: K,
  opts: { env?: MarketEnv; since?: Date } = {},
): Promise<WriteResult> {
  if (!provider.kinds.includes(kind)) throw new Error(`provider ${provider.name} does not supply ${kind}`);
  const rows: KindRow<K>[] = [];
  for await (const page of provider.fetch(kind, opts.since)) for (const row of page) rows.push(row);
  const sha256 = createHash("sha256").update(JSON.stringify(rows)).digest("hex");
  return writeRows(db, kind, rows, opts.env ?? "live", {
    source: { fileName: `provider:${provider.name}`, sha256, rows: rows.length },
  });
}
