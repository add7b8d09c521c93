/**
 * Which contracts the trades job reads prints for, and the quote in force at each print: both from the chain
 * snapshots the chain job stored (the vendor's trades carry no quote). Contracts are the most traded of the day's
 * newest snapshot per underlying; the quote at a print is the contract's snapshot quote nearest in time.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { arrayLiteral } from "../../db/array-literal";
import { newYorkInstant } from "../../analytics/exchange-calendar";
import type { QuoteAt } from "./map";
import { occTicker } from "./occ";

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
  const quotes = new Map<string, QuoteRow[]>();
  const contracts = new Map<string, string[]>();
  for (const r of rows) {
    const ticker = occTicker(r.symbol, r.expiry, r.right, r.strike);
    let list = quotes.get(ticker);
    if (!list) {
      quotes.set(ticker, (list = []));
      contracts.set(r.symbol, [...(contracts.get(r.symbol) ?? []), ticker]);
    }
    list.push(r);
  }
  const quoteAt: QuoteAt = (ticker, at) => {
    const list = quotes.get(ticker);
    if (!list?.length) return null;
    let best = list[0];
    for (const q of list) if (Math.abs(q.as_of_ms - at.getTime()) < Math.abs(best.as_of_ms - at.getTime())) best = q;
    return { bid: best.bid, ask: best.ask };
  };
  return { contracts, quoteAt };
}
