/**
 * A small RFC 4180 CSV reader: comma-separated fields, optional double-quoted fields that may contain
 * commas, line breaks and escaped quotes (""), CRLF / LF / CR line endings, and a leading UTF-8 BOM.
 *
 * Each record carries the 1-based line number of the file line it STARTS on (a quoted field with embedded
 * line breaks makes a record span several lines). Blank lines are skipped. Malformed records (a quote inside
 * an unquoted field, text after a closing quote, an unterminated quoted field) are still yielded, with
 * `error` set, so a caller can report every bad line instead of stopping at the first.
 */

export interface CsvRecord {
  /** 1-based line number of the line the record starts on. */
  line: number;
  /** Field values exactly as in the file (quotes removed, "" unescaped, no trimming). */
  fields: string[];
  /** Set when the record is malformed; `fields` is then best-effort. */
  error?: string;
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

/** Counts line breaks (CRLF, LF or lone CR) in text[from, to). */
function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === LF) n++;
    else if (c === CR && text.charCodeAt(k + 1) !== LF) n++;
  }
  return n;
}

/** Yields the records of a CSV text in file order. */
export function* readCsv(text: string): Generator<CsvRecord> {
  const n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let error: string | undefined;
    for (;;) {
      let field: string;
      if (text.charCodeAt(i) === QUOTE) {
        const openedOn = line;
        const parts: string[] = [];
        let closed = false;
        i++;
        while (i < n) {
          const q = text.indexOf('"', i);
          const end = q === -1 ? n : q;
          parts.push(text.slice(i, end));
          line += countBreaks(text, i, end);
          if (q === -1) {
            i = n;
            break;
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            parts.push('"');
            i = q + 2;
            continue;
          }
          i = q + 1;
          closed = true;
          break;
        }
        if (!closed) error ??= `unterminated quoted field (opened on line ${openedOn})`;
        const tailStart = i;
        while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
        if (i > tailStart) {
          error ??= `unexpected text after the closing quote of field ${fields.length + 1}`;
          parts.push(text.slice(tailStart, i));
        }
        field = parts.join("");
      } else {
        const start = i;
        while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
        field = text.slice(start, i);
        if (field.includes('"')) error ??= `unexpected quote in unquoted field ${fields.length + 1} (quote the whole field and double inner quotes)`;
      }
      fields.push(field);
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === COMMA) {
        i++;
        continue;
      }
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      line++;
      break;
    }
    if (!error && fields.length === 1 && fields[0].trim() === "") continue; // blank line
    yield error ? { line: startLine, fields, error } : { line: startLine, fields };
  }
}

function isDelimiter(c: number): boolean {
  return c === COMMA || c === LF || c === CR;
}

/** Convenience: all records of a CSV text. */
export function parseCsv(text: string): CsvRecord[] {
  return [...readCsv(text)];
}
