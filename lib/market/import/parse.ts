/** CSV text → typed rows of one kind, with every bad line reported (header, shape, cells, invariants, duplicates). */
import { readCsv } from "./csv";
import { specFor } from "./kinds";
import { findDuplicates, sortErrors } from "./validate";
import type { Cells, ImportError, ImportKind, KindRow, KindSpec } from "./types";

export interface ParsedFile<R> {
  /** Data records read (header and blank lines excluded), good or bad. */
  records: number;
  rows: R[];
  /** Source line of each row (parallel to rows). */
  lines: number[];
  errors: ImportError[];
}

export const normalizeHeader = (h: string): string => h.trim().toLowerCase().replace(/\s+/g, " ");

export function expectedHeader(spec: KindSpec<unknown>): string {
  return [...spec.required, ...spec.optional].join(",");
}

/** Null when the header fits the kind, else one reason naming missing, unknown and repeated columns. */
export function checkHeader(spec: KindSpec<unknown>, header: readonly string[]): string | null {
  const names = header.map(normalizeHeader);
  const known = new Set([...spec.required, ...spec.optional].map(normalizeHeader));
  const missing = spec.required.filter((c) => !names.includes(normalizeHeader(c)));
  const unknown = header.filter((_, i) => !known.has(names[i])).map((h) => (h.trim() === "" ? "(blank)" : h.trim()));
  const repeated = [...new Set(names.filter((n, i) => known.has(n) && names.indexOf(n) !== i))];
  const parts: string[] = [];
  if (missing.length) parts.push(`missing column(s): ${missing.join(", ")}`);
  if (unknown.length) parts.push(`unknown column(s): ${unknown.join(", ")}`);
  if (repeated.length) parts.push(`repeated column(s): ${repeated.join(", ")}`);
  if (!parts.length && spec.checkHeader) {
    const extra = spec.checkHeader(names);
    if (extra) parts.push(extra);
  }
  return parts.length ? `${parts.join("; ")}. Expected header for ${spec.kind}: ${expectedHeader(spec)}` : null;
}

export function parseCsvText<K extends ImportKind>(kind: K, text: string): ParsedFile<KindRow<K>> {
  const spec = specFor(kind) as KindSpec<KindRow<K>>;
  const out: ParsedFile<KindRow<K>> = { records: 0, rows: [], lines: [], errors: [] };
  const records = readCsv(text);
  const first = records.next();
  if (first.done) {
    out.errors.push({ line: 1, reason: `file is empty; expected a header line: ${expectedHeader(spec)}` });
    return out;
  }
  const head = first.value;
  const headerProblem = head.error ? `header line is malformed: ${head.error}` : checkHeader(spec, head.fields);
  if (headerProblem) {
    out.errors.push({ line: head.line, reason: headerProblem });
    return out;
  }
  const names = head.fields.map(normalizeHeader);
  for (const rec of records) {
    out.records++;
    if (rec.error) {
      out.errors.push({ line: rec.line, reason: rec.error });
      continue;
    }
    if (rec.fields.length !== names.length) {
      out.errors.push({
        line: rec.line,
        reason: `expected ${names.length} fields as in the header, found ${rec.fields.length}`,
      });
      continue;
    }
    const cells: Cells = {};
    names.forEach((n, i) => {
      cells[n] = rec.fields[i];
    });
    const parsed = spec.parse(cells);
    for (const reason of parsed.errors) out.errors.push({ line: rec.line, reason });
    for (const row of parsed.rows) {
      out.rows.push(row);
      out.lines.push(rec.line);
    }
  }
  if (out.records === 0) out.errors.push({ line: head.line, reason: "no data rows after the header" });
  out.errors = sortErrors([...out.errors, ...findDuplicates(spec, out.rows, out.lines)]);
  return out;
}
