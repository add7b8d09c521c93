/**
 * Market-data CSV import: `importFile(db, kind, path)` validates the whole file, then writes it all or
 * nothing through `writeRows`. CSV layouts are documented in ./kinds/*.ts (one file per kind).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { Db } from "../../db/client";
import { specFor } from "./kinds";
import { findUnknownSymbols } from "./known-symbols";
import { parseCsvText } from "./parse";
import { sortErrors } from "./validate";
import { writeRows } from "./write";
import { isImportKind, IMPORT_KINDS, type ImportKind, type ImportOptions, type ImportReport } from "./types";

export { IMPORT_KINDS, isImportKind, formatImportError } from "./types";
export type { ImportError, ImportKind, ImportOptions, ImportReport, KindRow, KindRows } from "./types";
export { writeRows, type WriteOptions, type WriteResult, type WriteSource } from "./write";
export { parseCsvText, type ParsedFile } from "./parse";
export { readCsv, parseCsv, type CsvRecord } from "./csv";

const sha256Hex = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/**
 * Imports CSV text of one kind. `opts.sha256` overrides the recorded hash (importFile passes the file's
 * bytes hash); otherwise the UTF-8 text is hashed. Never throws for bad data: see report.errors.
 */
export async function importCsvText(
  db: Db,
  kind: ImportKind,
  text: string,
  opts: ImportOptions & { sha256?: string } = {},
): Promise<ImportReport> {
  assertKind(kind);
  const env = opts.env ?? "live";
  const file = opts.fileName ?? "(text)";
  const parsed = parseCsvText(kind, text);
  const base = { kind, env, file, rows: parsed.records, inserted: 0, updated: 0, unchanged: 0 };
  if (parsed.errors.length) {
    // Still look up symbols so the operator sees every problem in one pass; nothing is written.
    const unknown = await findUnknownSymbols(db, specFor(kind), parsed.rows, env, parsed.lines);
    return { ...base, errors: sortErrors([...parsed.errors, ...unknown]), ok: false };
  }
  const result = await writeRows(db, kind, parsed.rows, env, {
    lines: parsed.lines,
    source: { fileName: file, sha256: opts.sha256 ?? sha256Hex(text), rows: parsed.records },
  });
  const { inserted, updated, unchanged, errors, ok, changedFrom } = result;
  return { ...base, inserted, updated, unchanged, errors, ok, changedFrom: changedFrom ?? null };
}

/** Reads a UTF-8 CSV file and imports it; import_runs records its base name (or opts.fileName) and sha256. */
export async function importFile(
  db: Db,
  kind: ImportKind,
  filePath: string,
  opts: ImportOptions = {},
): Promise<ImportReport> {
  assertKind(kind);
  const bytes = await readFile(filePath);
  return importCsvText(db, kind, bytes.toString("utf8"), {
    ...opts,
    fileName: opts.fileName ?? basename(filePath),
    sha256: sha256Hex(bytes),
  });
}

function assertKind(kind: string): asserts kind is ImportKind {
  if (!isImportKind(kind)) throw new Error(`unknown import kind "${kind}"; expected one of ${IMPORT_KINDS.join(", ")}`);
}
