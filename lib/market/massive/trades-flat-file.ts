/**
 * Massive's options trades day file (`us_options_opra/trades_v1/YYYY/MM/YYYY-MM-DD.csv.gz`, documented at
 * https://massive.com/docs/flat-files/options/trades): gzip, then CSV with a header row. Read as a stream, line by
 * line, so a day file of gigabytes is never held whole; only the prints of the configured underlyings are kept, as
 * the same VendorTrade objects the REST path maps (lib/market/massive/map.ts `tradeRows` does every row check).
 * Nanosecond columns stay decimal strings, exact. A stream that breaks (truncated or corrupt gzip, a read error) or a
 * line whose fields do not match the header fails the whole read: nothing is returned, so nothing is written.
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";
import { VendorError } from "./client";
import { ADJUSTED_CONTRACT, parseOccTicker, underlyingOfRoot } from "./occ";
import { type Mapped, tradeRows, type VendorTrade } from "./map";

/** The columns read; the file has more (`correction`, `id`, `participant_timestamp`), which are not used. */
export const TRADES_FLAT_FILE_COLUMNS = [
  "ticker",
  "conditions",
  "exchange",
  "price",
  "sequence_number",
  "sip_timestamp",
  "size",
] as const;

/** The object key of a day's file in the `flatfiles` bucket. */
export function tradesFlatFileKey(date: string): string {
  return `us_options_opra/trades_v1/${date.slice(0, 4)}/${date.slice(5, 7)}/${date}.csv.gz`;
}

/** Lines of a byte or text stream, split on \n (a trailing \r dropped), whatever the chunk boundaries. */
export async function* textLines(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  for await (const chunk of chunks) {
    carry += typeof chunk === "string" ? chunk : decoder.write(chunk);
    let from = 0;
    for (let at = carry.indexOf("\n"); at >= 0; at = carry.indexOf("\n", from)) {
      yield carry.slice(from, at).replace(/\r$/, "");
      from = at + 1;
    }
    carry = carry.slice(from);
  }
  carry += decoder.end();
  if (carry) yield carry.replace(/\r$/, "");
}

/** One CSV line's fields: a field in double quotes may hold commas (`"209,219"`) and doubled quotes. */
export function csvFields(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = line.indexOf('"', j);
        if (q < 0) return null;
        value += line.slice(j, q);
        if (line[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      if (j < line.length && line[j] !== ",") return null;
      out.push(value);
      i = j + 1;
    } else {
      const comma = line.indexOf(",", i);
      const end = comma < 0 ? line.length : comma;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const numberOrUndefined = (s: string | undefined) => (s !== undefined && NUMBER.test(s) ? Number(s) : undefined);
const conditionIds = (s: string) => (s.trim() ? s.split(",").map((c) => Number(c.trim())) : []);

export interface FlatFileTrades {
  /** Data rows read (the header excluded). */
  read: number;
  /** The configured underlyings' prints, by underlying, in file order; not yet checked (tradeRows does that). */
  trades: Map<string, VendorTrade[]>;
  /** Rows left out here: another underlying, a ticker that does not parse, a SIP time outside the file's day. */
  skipped: Mapped<never>["skipped"];
}

export interface FlatFileFilter {
  symbols: ReadonlySet<string>;
  /** The file's New York day in Unix ns, [start, end): a print outside it is skipped. */
  window: { startNs: string; endNs: string };
}

const skip = (out: FlatFileTrades, reason: string) => {
  out.skipped[reason] = (out.skipped[reason] ?? 0) + 1;
};

/** One row as the REST path's VendorTrade: numbers parsed, the nanosecond columns kept as strings. */
function vendorTrade(fields: string[], at: Record<(typeof TRADES_FLAT_FILE_COLUMNS)[number], number>): VendorTrade {
  return {
    ticker: fields[at.ticker],
    conditions: conditionIds(fields[at.conditions]),
    exchange: numberOrUndefined(fields[at.exchange]),
    price: numberOrUndefined(fields[at.price]),
    size: numberOrUndefined(fields[at.size]),
    sip_timestamp: fields[at.sip_timestamp] || undefined,
    sequence_number: fields[at.sequence_number] || undefined,
  };
}

function columnIndexes(header: string | undefined) {
  const names = header === undefined ? null : csvFields(header);
  const at = {} as Record<(typeof TRADES_FLAT_FILE_COLUMNS)[number], number>;
  for (const column of TRADES_FLAT_FILE_COLUMNS) {
    const i = names?.indexOf(column) ?? -1;
    if (i < 0) throw new VendorError("malformed", `trades flat file: the header has no "${column}" column`);
    at[column] = i;
  }
  return { at, width: names?.length ?? 0 };
}

/** Keeps a row of a configured underlying inside the day, or counts why not. */
function keep(out: FlatFileTrades, t: VendorTrade, symbols: ReadonlySet<string>, from: bigint, to: bigint): void {
  const occ = parseOccTicker(t.ticker ?? "");
  const sip = t.sip_timestamp as string | undefined;
  if (!occ) {
    // The REST mapping's own rule counts it, so both paths name the skip alike.
    for (const [reason, n] of Object.entries(tradeRows("", [t], () => null).skipped))
      out.skipped[reason] = (out.skipped[reason] ?? 0) + n;
    return;
  }
  const underlying = underlyingOfRoot(occ.root);
  if (underlying === null) skip(out, ADJUSTED_CONTRACT);
  else if (!symbols.has(underlying)) skip(out, "underlying not configured");
  else if (sip && /^\d{10,19}$/.test(sip) && (BigInt(sip) < from || BigInt(sip) >= to))
    skip(out, "SIP time outside the file's date");
  else {
    const list = out.trades.get(underlying);
    if (list) list.push(t);
    else out.trades.set(underlying, [t]);
  }
}

/** Reads a gzipped trades day file from `source` (a file or download stream). */
export async function readTradesFlatFile(source: Readable, filter: FlatFileFilter): Promise<FlatFileTrades> {
  const out: FlatFileTrades = { read: 0, trades: new Map(), skipped: {} };
  const gunzip = createGunzip();
  // pipe() does not pass a read error on: the gunzip stream fails with it, which ends the iteration below.
  source.on("error", (err) => gunzip.destroy(err));
  const lines = textLines(source.pipe(gunzip));
  const [from, to] = [BigInt(filter.window.startNs), BigInt(filter.window.endNs)];
  let columns: ReturnType<typeof columnIndexes> | null = null;
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (!columns) {
        columns = columnIndexes(line.replace(/^\uFEFF/, ""));
        continue;
      }
      if (!line) continue;
      const fields = csvFields(line);
      if (!fields || fields.length !== columns.width)
        throw new VendorError(
          "malformed",
          `trades flat file: line ${lineNo} does not have the header's ${columns.width} fields`,
        );
      out.read++;
      keep(out, vendorTrade(fields, columns.at), filter.symbols, from, to);
    }
  } catch (err) {
    source.destroy();
    if (err instanceof VendorError) throw err;
    throw new VendorError("malformed", `trades flat file unreadable after line ${lineNo}: ${(err as Error).message}`);
  }
  if (!columns) throw new VendorError("malformed", "trades flat file is empty");
  return out;
}
