/**
 * CSV reading on csv-parse (RFC 4180: quoted fields with commas, line breaks and "" escapes; CRLF / LF / CR line
 * endings; a leading UTF-8 BOM), with what the importer needs on top: each record carries the 1-based line number it
 * STARTS on, blank lines are skipped, and a malformed record (a quote inside an unquoted field, text after a closing
 * quote, an unterminated quoted field) is yielded with `error` set and reading resumes on the next line, so a caller
 * can report every bad line instead of stopping at the first.
 */
import { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";

export interface CsvRecord {
  /** 1-based line number of the line the record starts on. */
  line: number;
  /** Field values exactly as in the file (quotes removed, "" unescaped, no trimming). */
  fields: string[];
  /** Set when the record is malformed; `fields` is then best-effort. */
  error?: string;
}

const LF = 10;
const CR = 13;

/** Byte offsets where every physical line of `buf` starts (index 0 = line 1); CRLF, LF and lone CR end a line. */
function lineStarts(buf: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === LF || (c === CR && buf[i + 1] !== LF)) starts.push(i + 1);
  }
  return starts;
}

/** 1-based line containing byte offset `at` (binary search over line starts). */
function lineAt(starts: number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function message(err: CsvError, field: number, startLine: number): string {
  switch (err.code) {
    case "INVALID_OPENING_QUOTE":
      return `unexpected quote in unquoted field ${field} (quote the whole field and double inner quotes)`;
    case "CSV_INVALID_CLOSING_QUOTE":
      return `unexpected text after the closing quote of field ${field}`;
    case "CSV_QUOTE_NOT_CLOSED":
      return `unterminated quoted field (opened on line ${startLine})`;
    default:
      return `malformed record: ${err.message}`;
  }
}

/** Yields the records of a CSV text in file order. */
export function* readCsv(text: string): Generator<CsvRecord> {
  const buf = Buffer.from(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, "utf8");
  const starts = lineStarts(buf);
  const lineText = (line: number) =>
    buf
      .subarray(starts[line - 1], line < starts.length ? starts[line] : buf.length)
      .toString("utf8")
      .replace(/(\r\n|\n|\r)$/, "");
  // Records start on the first non-empty line at or after a byte offset (csv-parse skips empty lines before them).
  const startLine = (at: number) => {
    let line = lineAt(starts, at);
    while (line < starts.length && lineText(line) === "") line++;
    return line;
  };
  let from = 0; // byte offset where the current csv-parse pass starts
  while (from < buf.length) {
    const got: CsvRecord[] = [];
    let consumed = from; // byte offset just past the last complete record
    let failure: CsvError | null = null;
    try {
      parse(buf.subarray(from), {
        relax_column_count: true,
        skip_empty_lines: true,
        record_delimiter: ["\r\n", "\n", "\r"],
        on_record: (record: string[], info) => {
          got.push({ line: startLine(consumed), fields: record });
          consumed = from + info.bytes;
          return null;
        },
      });
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
      failure = err;
    }
    for (const r of got) if (!(r.fields.length === 1 && r.fields[0].trim() === "")) yield r;
    if (!failure) return;
    const start = startLine(consumed);
    const field = ((failure as unknown as { index?: number }).index ?? 0) + 1;
    yield { line: start, fields: lineText(start).split(","), error: message(failure, field, start) };
    if (failure.code === "CSV_QUOTE_NOT_CLOSED") return; // the open quote swallowed the rest of the file
    // Resume on the line after the one where the problem was found.
    const found = Math.max(
      start,
      lineAt(starts, from + Math.max(0, ((failure as unknown as { bytes?: number }).bytes ?? 0) - 1)),
    );
    if (found >= starts.length) return;
    from = starts[found];
  }
}

/** Convenience: all records of a CSV text. */
export function parseCsv(text: string): CsvRecord[] {
  return [...readCsv(text)];
}
