/**
 * Which contracts the trades job reads prints for, and the quote in force at each print: both from the chain
 * snapshots the chain job stored (the vendor's trades carry no quote). Contracts are the most traded of the day's
 * newest snapshot per underlying; the quote at a print is the contract's snapshot quote nearest in time. The flat-file
 * path asks for the quotes of the contracts its file traded (quotesForContracts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { arrayLiteral } from "../../db/array-literal";
import { newYorkInstant } from "../../analytics/exchange-calendar";
import type { QuoteAt } from "./map";
import { occTicker, parseOccTicker } from "./occ";

type QuoteRow = {
  symbol: string;
  expiry: string;
  strike: number;
  right: "C" | "P";
  as_of_ms: number;
  bid: number;
  ask: number;
};

/** The New York day [00:00, 24:00) as Unix nanoseconds (decimal strings, exact). */
export function dayWindowNs(date: string): { startNs: string; endNs: string; start: Date; end: Date } {
  const start = newYorkInstant(date, 0);
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const end = newYorkInstant(next, 0);
  const ns = (d: Date) => `${BigInt(d.getTime()) * 1_000_000n}`;
  return { startNs: ns(start), endNs: ns(end), start, end };
}

export async function tradeContracts(
  db: Db,
  symbols: readonly string[],
  date: string,
  perSymbol: number,
): Promise<{ contracts: Map<string, string[]>; quoteAt: QuoteAt }> {
  const { start, end } = dayWindowNs(date);
  const rows = await db.execute<QuoteRow>(sql`
    with latest as (
      select symbol, max(as_of) as as_of from option_quotes
      where env = 'live' and symbol = any(${arrayLiteral(symbols)}::text[])
        and as_of >= ${start.toISOString()}::timestamptz and as_of < ${end.toISOString()}::timestamptz
      group by symbol),
    chosen as (
      select symbol, expiry, strike, "right" from (
        select q.symbol, q.expiry, q.strike, q."right",
          row_number() over (partition by q.symbol order by q.volume desc, q.expiry, q.strike, q."right") as rn
        from option_quotes q join latest l on l.symbol = q.symbol and l.as_of = q.as_of
        where q.env = 'live' and q.volume > 0) r
      where rn <= ${perSymbol})
    select q.symbol, q.expiry::text as expiry, q.strike, q."right",
      round(extract(epoch from q.as_of) * 1000)::float8 as as_of_ms, q.bid, q.ask
    from option_quotes q join chosen c using (symbol, expiry, strike, "right")
    where q.env = 'live' and q.as_of >= ${start.toISOString()}::timestamptz and q.as_of < ${end.toISOString()}::timestamptz
    order by q.symbol, q.expiry, q.strike, q."right", q.as_of`);
  const contracts = new Map<string, string[]>();
  for (const r of rows) {
    const ticker = occTicker(r.symbol, r.expiry, r.right, r.strike);
    let list = contracts.get(r.symbol);
    if (!list) contracts.set(r.symbol, (list = []));
    if (list.at(-1) !== ticker) list.push(ticker);
  }
  return { contracts, quoteAt: nearestQuote(rows) };
}

/**
 * The quote at a print for the given contracts (OCC tickers whose root is the underlying): each contract's stored
 * snapshot quotes of the New York day, the nearest in time (the flat-file path, which reads every traded contract).
 */
export async function quotesForContracts(db: Db, tickers: Iterable<string>, date: string): Promise<QuoteAt> {
  const cols: { symbol: string[]; expiry: string[]; strike: number[]; right: string[] } = {
    symbol: [],
    expiry: [],
    strike: [],
    right: [],
  };
  for (const t of new Set(tickers)) {
    const occ = parseOccTicker(t);
    if (!occ) continue;
    cols.symbol.push(occ.root);
    cols.expiry.push(occ.expiry);
    cols.strike.push(occ.strike);
    cols.right.push(occ.right);
  }
  if (!cols.symbol.length) return () => null;
  const { start, end } = dayWindowNs(date);
  const rows = await db.execute<QuoteRow>(sql`
    select q.symbol, q.expiry::text as expiry, q.strike, q."right",
      round(extract(epoch from q.as_of) * 1000)::float8 as as_of_ms, q.bid, q.ask
    from option_quotes q
    join unnest(${arrayLiteral(cols.symbol)}::text[], ${arrayLiteral(cols.expiry)}::date[],
      ${arrayLiteral(cols.strike)}::float8[], ${arrayLiteral(cols.right)}::text[]) as c(symbol, expiry, strike, "right")
      on c.symbol = q.symbol and c.expiry = q.expiry and c.strike = q.strike and c."right" = q."right"
    where q.env = 'live' and q.as_of >= ${start.toISOString()}::timestamptz and q.as_of < ${end.toISOString()}::timestamptz
    order by q.symbol, q.expiry, q.strike, q."right", q.as_of`);
  return nearestQuote(rows);
}

/** Quote rows (ordered by contract, then time) as a lookup: the contract's quote nearest the print, the earlier on a tie. */
function nearestQuote(rows: Iterable<QuoteRow>): QuoteAt {
  const quotes = new Map<string, QuoteRow[]>();
  for (const r of rows) {
    const ticker = occTicker(r.symbol, r.expiry, r.right, r.strike);
    const list = quotes.get(ticker);
    if (list) list.push(r);
    else quotes.set(ticker, [r]);
  }
  return (ticker, at) => {
    const list = quotes.get(ticker);
    if (!list?.length) return null;
    const t = at.getTime();
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].as_of_ms < t) lo = mid + 1;
      else hi = mid;
    }
    // lo: the first quote at or after the print; the one before it wins a tie (it came first).
    const before = list[lo - 1];
    const after = list[lo];
    const best = !after || (before && t - before.as_of_ms <= after.as_of_ms - t) ? before : after;
    return { bid: best.bid, ask: best.ask };
  };
}
