/**
 * Massive answers (documented shapes, see fixtures/massive/README.md) to the store's typed rows. Pure: no I/O.
 * A row that breaks a rule is skipped and counted by reason (docs/market-data.md "Bad vendor answers"); the vendor's
 * own greeks and implied volatility are never read: the product computes its own.
 */
import type { Bar, CashDividendRow, Instrument, OptionQuote, OptionTrade } from "../../analytics/types";
import { newYorkDate } from "../../analytics/exchange-calendar";
import { conditionText } from "./conditions";
import { fromNanos, parseOccTicker, rootMismatch } from "./occ";

/** Rows kept and rows skipped (reason → count). */
export interface Mapped<R> {
  rows: R[];
  skipped: Record<string, number>;
}

const skip = (m: Mapped<unknown>, reason: string) => {
  m.skipped[reason] = (m.skipped[reason] ?? 0) + 1;
};
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** One result of `GET /v3/snapshot/options/{underlyingAsset}` (the fields read). */
export interface SnapshotContract {
  details?: { ticker?: string; contract_type?: string; expiration_date?: string; strike_price?: number };
  last_quote?: { bid?: number; ask?: number; last_updated?: number };
  last_trade?: { price?: number };
  day?: { volume?: number; close?: number };
  open_interest?: number;
  underlying_asset?: { price?: number; ticker?: string };
}

/**
 * A chain snapshot of one underlying. The snapshot is as of the newest vendor quote time among its contracts
 * (`last_quote.last_updated`), never the sync's clock. Skipped: no quote, an OCC ticker that does not parse or
 * disagrees with `details`, a strike ≤ 0, a negative bid or ask, bid > ask, an expiry before the snapshot's date.
 */
export function chainRows(
  symbol: string,
  results: readonly SnapshotContract[],
): Mapped<OptionQuote> & {
  underlyingPrice: number | null;
} {
  const out: Mapped<OptionQuote> = { rows: [], skipped: {} };
  let newest = 0;
  let underlyingPrice: number | null = null;
  const kept: Omit<OptionQuote, "asOf">[] = [];
  for (const c of results) {
    const d = c.details ?? {};
    const occ = parseOccTicker(d.ticker ?? "");
    const strike = num(d.strike_price);
    const bid = num(c.last_quote?.bid);
    const ask = num(c.last_quote?.ask);
    const at = fromNanos(c.last_quote?.last_updated);
    const notOurs = occ && rootMismatch(occ, symbol);
    if (strike !== null && strike <= 0) skip(out, "strike not positive");
    else if (!occ || strike === null || occ.strike !== strike || occ.expiry !== d.expiration_date)
      skip(out, "contract ticker does not match its details");
    else if (occ.right !== (d.contract_type === "put" ? "P" : d.contract_type === "call" ? "C" : null))
      skip(out, "contract type does not match its ticker");
    else if (notOurs) skip(out, notOurs);
    else if (bid === null || ask === null || !at) skip(out, "no quote");
    else if (bid < 0 || ask < 0) skip(out, "negative bid or ask");
    else if (bid > ask) skip(out, "bid above ask");
    else {
      newest = Math.max(newest, at.getTime());
      underlyingPrice = num(c.underlying_asset?.price) ?? underlyingPrice;
      const volume = num(c.day?.volume) ?? 0;
      const oi = num(c.open_interest) ?? 0;
      kept.push({
        symbol,
        expiry: occ.expiry,
        strike: occ.strike,
        right: occ.right,
        bid,
        ask,
        last: num(c.last_trade?.price),
        volume: Math.max(0, Math.round(volume)),
        openInterest: Math.max(0, Math.round(oi)),
      });
    }
  }
  const asOf = new Date(newest);
  const day = newYorkDate(asOf);
  for (const q of kept) {
    if (q.expiry < day) skip(out, "expired before the snapshot");
    else out.rows.push({ ...q, asOf });
  }
  return { ...out, underlyingPrice };
}

/** One result of `GET /v2/aggs/ticker/{ticker}/range/1/day/{from}/{to}`: ms start time, OHLC, volume. */
export interface AggBar {
  o?: number;
  h?: number;
  l?: number;
  c?: number;
  v?: number;
  t?: number;
}

/** Daily bars: `t` (ms, the session's start in New York) gives the session date, stored at 00:00 UTC of it. */
export function barRows(symbol: string, results: readonly AggBar[]): Mapped<Bar> {
  const out: Mapped<Bar> = { rows: [], skipped: {} };
  for (const b of results) {
    const [o, h, l, c, v, t] = [num(b.o), num(b.h), num(b.l), num(b.c), num(b.v), num(b.t)];
    if (o === null || h === null || l === null || c === null || v === null || t === null) skip(out, "missing field");
    else if (!(l > 0) || l > Math.min(o, c) || h < Math.max(o, c)) skip(out, "prices out of order");
    else {
      const date = newYorkDate(new Date(t));
      out.rows.push({
        symbol,
        interval: "1d",
        ts: new Date(`${date}T00:00:00Z`),
        open: o,
        high: h,
        low: l,
        close: c,
        volume: Math.round(v),
      });
    }
  }
  return out;
}

/** One result of `GET /v3/reference/dividends`. */
export interface VendorDividend {
  ticker?: string;
  ex_dividend_date?: string;
  cash_amount?: number;
  currency?: string;
  dividend_type?: string;
}

/**
 * Cash dividends: regular (`CD`) and special (`SC`) in USD. Capital-gain distributions (`LT`, `ST`) and other
 * currencies are skipped; two rows for one ex-date (a regular and a special) are summed.
 */
export function dividendRows(symbol: string, results: readonly VendorDividend[]): Mapped<CashDividendRow> {
  const out: Mapped<CashDividendRow> = { rows: [], skipped: {} };
  const byDate = new Map<string, number>();
  for (const d of results) {
    const amount = num(d.cash_amount);
    if (d.dividend_type !== "CD" && d.dividend_type !== "SC") skip(out, "not a cash dividend");
    else if ((d.currency ?? "USD") !== "USD") skip(out, "not in USD");
    else if (!d.ex_dividend_date || !/^\d{4}-\d{2}-\d{2}$/.test(d.ex_dividend_date)) skip(out, "no ex-dividend date");
    else if (amount === null || amount <= 0) skip(out, "amount not positive");
    else byDate.set(d.ex_dividend_date, (byDate.get(d.ex_dividend_date) ?? 0) + amount);
  }
  for (const [exDate, amount] of [...byDate].sort())
    out.rows.push({ symbol, exDate, amount: Math.round(amount * 1e6) / 1e6 });
  return out;
}

/** One print of `GET /v3/trades/{optionsTicker}` or a row of the `us_options_opra/trades_v1` flat file. */
export interface VendorTrade {
  ticker?: string;
  conditions?: unknown[];
  exchange?: number;
  price?: number;
  size?: number;
  sip_timestamp?: number | string;
  sequence_number?: number | string;
}

/** The quote in force at a print: from the nearest stored chain snapshot of that contract. */
export type QuoteAt = (ticker: string, at: Date) => { bid: number; ask: number } | null;

/**
 * Option prints of one underlying. The trade id is `<ticker>:<sip_timestamp ns>:<sequence_number>` (exact, so a re-run
 * rewrites the same rows); the stored time is the SIP time to the millisecond. Skipped: a ticker that does not parse,
 * price ≤ 0, size < 1, no time, no snapshot quote for the contract.
 */
export function tradeRows(symbol: string, results: readonly VendorTrade[], quoteAt: QuoteAt): Mapped<OptionTrade> {
  const out: Mapped<OptionTrade> = { rows: [], skipped: {} };
  for (const t of results) {
    const occ = parseOccTicker(t.ticker ?? "");
    const price = num(t.price);
    const size = num(t.size);
    const ts = fromNanos(t.sip_timestamp);
    const notOurs = occ && rootMismatch(occ, symbol);
    if (!occ) skip(out, "contract ticker does not parse");
    else if (notOurs) skip(out, notOurs);
    else if (price === null || price <= 0) skip(out, "price not positive");
    else if (size === null || size < 1 || !Number.isInteger(size)) skip(out, "size not a whole number ≥ 1");
    else if (!ts) skip(out, "no SIP timestamp");
    else {
      const quote = quoteAt(t.ticker as string, ts);
      if (!quote) skip(out, "no snapshot quote for the contract");
      else
        out.rows.push({
          tradeId: `${t.ticker}:${String(t.sip_timestamp)}:${String(t.sequence_number ?? 0)}`,
          symbol,
          ts,
          expiry: occ.expiry,
          strike: occ.strike,
          right: occ.right,
          price,
          size,
          exchange: String(t.exchange ?? ""),
          condition: conditionText(t.conditions),
          bid: quote.bid,
          ask: quote.ask,
        });
    }
  }
  return out;
}

/** `GET /v3/reference/tickers/{ticker}` results (the fields read). */
export interface VendorTicker {
  ticker?: string;
  name?: string;
  type?: string;
  market?: string;
}

const KIND_BY_TYPE: Record<string, Instrument["kind"]> = {
  CS: "equity",
  ADRC: "equity",
  ETF: "etf",
  ETN: "etf",
  ETV: "etf",
  ETS: "etf",
  INDEX: "index",
};

/** A new instrument from the ticker reference; sector and next earnings are not given by the vendor: unknown. */
export function instrumentFromTicker(symbol: string, t: VendorTicker): Instrument | string {
  const kind = t.market === "indices" ? "index" : KIND_BY_TYPE[t.type ?? ""];
  if (!kind) return `ticker ${symbol} has type "${t.type ?? "none"}", which is not an equity, ETF or index`;
  if (!t.name) return `ticker ${symbol} has no name`;
  return { symbol, name: t.name.slice(0, 200), sector: "Unknown", kind, nextEarningsDate: null, dividendYield: 0 };
}
