/**
 * What each sync kind reads from Massive, as typed rows (docs/market-data.md "What each job reads and writes").
 * Symbols are fetched a few at a time; any transport or shape failure fails the whole fetch (nothing is written).
 */
import type { Bar, CashDividendRow, Instrument, OptionQuote, OptionTrade, TreasuryYield } from "../../analytics/types";
import { parseCsvText } from "../import/parse";
import { formatImportError } from "../import/types";
import { type MassiveClient, VendorError } from "./client";
import {
  type AggBar,
  barRows,
  chainRows,
  dividendRows,
  instrumentFromTicker,
  type Mapped,
  type QuoteAt,
  type SnapshotContract,
  tradeRows,
  type VendorDividend,
  type VendorTicker,
  type VendorTrade,
} from "./map";

const CONCURRENCY = 4;

/**
 * Runs `work` over items CONCURRENCY at a time, merging rows and skip counts; the first failure fails all. After a
 * failure the other workers stop at their next page (`signal`) and are waited for: no request of a failed run is still
 * going after it returns (one was seen taking a 429 meant for the next run).
 */
async function each<T, R>(
  items: readonly T[],
  work: (item: T, signal: AbortSignal) => Promise<Mapped<R>>,
): Promise<Mapped<R>> {
  const out: Mapped<R> = { rows: [], skipped: {} };
  const results: Mapped<R>[] = new Array(items.length);
  const stop = new AbortController();
  let failure: { err: unknown } | null = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length && !stop.signal.aborted) {
        const i = next++;
        try {
          results[i] = await work(items[i], stop.signal);
        } catch (err) {
          failure ??= { err };
          stop.abort();
        }
      }
    }),
  );
  if (failure) throw (failure as { err: unknown }).err;
  for (const r of results) {
    for (const row of r.rows) out.rows.push(row);
    for (const [k, n] of Object.entries(r.skipped)) out.skipped[k] = (out.skipped[k] ?? 0) + n;
  }
  return out;
}

/** Every page's results; stops (throws) before the next page once `signal` is aborted. */
async function collect<T>(pages: AsyncGenerator<T[]>, signal: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) {
    signal.throwIfAborted();
    for (const r of page) all.push(r);
  }
  return all;
}

export function fetchChains(client: MassiveClient, symbols: readonly string[]): Promise<Mapped<OptionQuote>> {
  return each(symbols, async (symbol, signal) => {
    const results = await collect(
      client.pages<SnapshotContract>(`/v3/snapshot/options/${encodeURIComponent(symbol)}`, { limit: 250 }),
      signal,
    );
    return chainRows(symbol, results);
  });
}

/** Daily bars from `from` to `to` (YYYY-MM-DD, inclusive), split-adjusted as the vendor serves them by default. */
export function fetchBars(
  client: MassiveClient,
  symbols: readonly string[],
  from: string,
  to: string,
): Promise<Mapped<Bar>> {
  return each(symbols, async (symbol, signal) => {
    const path = `/v2/aggs/ticker/${encodeURIComponent(symbol)}/range/1/day/${from}/${to}`;
    const results = await collect(client.pages<AggBar>(path, { adjusted: "true", sort: "asc", limit: 50000 }), signal);
    return barRows(symbol, results);
  });
}

/** Cash dividends going ex on or after `from`. */
export function fetchDividends(
  client: MassiveClient,
  symbols: readonly string[],
  from: string,
): Promise<Mapped<CashDividendRow>> {
  return each(symbols, async (symbol, signal) => {
    const results = await collect(
      client.pages<VendorDividend>("/v3/reference/dividends", {
        ticker: symbol,
        "ex_dividend_date.gte": from,
        limit: 1000,
      }),
      signal,
    );
    return dividendRows(symbol, results);
  });
}

/** Prints of the given contracts (OCC tickers per underlying) during one New York day, [start, end) in ns. */
export function fetchTrades(
  client: MassiveClient,
  contracts: ReadonlyMap<string, readonly string[]>,
  window: { startNs: string; endNs: string },
  quoteAt: QuoteAt,
): Promise<Mapped<OptionTrade>> {
  const work = [...contracts].flatMap(([symbol, tickers]) => tickers.map((t) => ({ symbol, ticker: t })));
  return each(work, async ({ symbol, ticker }, signal) => {
    const results = await collect(
      client.pages<VendorTrade>(`/v3/trades/${ticker}`, {
        "timestamp.gte": window.startNs,
        "timestamp.lt": window.endNs,
        limit: 50000,
      }),
      signal,
    );
    return tradeRows(
      symbol,
      results.map((r) => ({ ...r, ticker })),
      quoteAt,
    );
  });
}

/** Instruments for symbols the store lacks, from the ticker reference; a symbol that cannot be one fails the run. */
export async function fetchInstruments(client: MassiveClient, symbols: readonly string[]): Promise<Instrument[]> {
  const out: Instrument[] = [];
  for (const symbol of symbols) {
    const answer = await client.getJson<{ results?: VendorTicker }>(
      `/v3/reference/tickers/${encodeURIComponent(symbol)}`,
    );
    const made = instrumentFromTicker(symbol, answer?.results ?? {});
    if (typeof made === "string") throw new VendorError("malformed", made);
    out.push(made);
  }
  return out;
}

/**
 * The US Treasury's par yield CSV from a configurable URL (not the vendor's host: no key is sent), read with the same
 * parser as `cli import treasury`; any bad line fails the run.
 */
export async function fetchTreasury(url: string, timeoutMs = 20_000): Promise<TreasuryYield[]> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "text/csv" }, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    throw new VendorError("network", `cannot download the Treasury CSV: ${(err as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new VendorError(res.status >= 500 ? "server" : "http", `Treasury CSV answered ${res.status}`);
  }
  const parsed = parseCsvText("treasury", await res.text());
  if (parsed.errors.length)
    throw new VendorError("malformed", `Treasury CSV: ${parsed.errors.slice(0, 3).map(formatImportError).join("; ")}`);
  return parsed.rows;
}
