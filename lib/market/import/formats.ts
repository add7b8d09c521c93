/** CSV layouts of `cli import <kind>`: the single source of their documentation, served in the API reference. */
import type { ImportKind } from "./types";

export const IMPORT_FORMATS: Record<ImportKind, { title: string; notes: string[] }> = {
  instruments: {
    title: "`instruments` CSV: symbol,name,sector,kind,next_earnings_date,dividend_yield",
    notes: [
      "symbol: case-insensitive, stored upper-case; ^[A-Z]{1,6}([.-][A-Z]{1,2})?$",
      "name, sector: non-empty text",
      "kind: equity | etf | index | volatility_index",
      "next_earnings_date: YYYY-MM-DD, optional (blank = unknown); must be blank for etf / index / volatility_index",
      "dividend_yield: continuous annual yield as a DECIMAL (0.012 = 1.2 %), 0 ≤ y ≤ 0.5; blank = 0",
      "exercise_style (optional column): american | european; blank or absent = by kind (american for equity and etf, european for index and volatility_index)",
      "earnings_timing (optional column): before_open | after_close, when the earnings are reported on next_earnings_date (before that day's open, or after its 16:00 New York close); blank or absent = unknown; must be blank when next_earnings_date is blank. An expiry on the earnings date carries a before_open event but not an after_close one (its options stop trading at that close); with the timing unknown it is left out of the expected move's event split",
      "Bars, chain and trades rows may only reference symbols that have a row here (same env).",
    ],
  },
  treasury: {
    title: '`treasury` CSV: the US Treasury "Daily Treasury Par Yield Curve Rates" download, exactly as published:',
    notes: [
      "Date,1 Mo,2 Mo,3 Mo,4 Mo,6 Mo,1 Yr,2 Yr,3 Yr,5 Yr,7 Yr,10 Yr,20 Yr,30 Yr",
      "Columns are mapped by header name (case-insensitive), so their order does not matter and a year's file may lack tenor columns (4 Mo before late 2022, 2 Mo before late 2018, …). Date and at least one tenor column are required; any other column name is rejected.",
      '"1.5 Month" (published since 2025) is accepted and IGNORED: it is not one of the stored tenors.',
      "Date: MM/DD/YYYY. Row order is free (the Treasury publishes newest first). A date may appear once.",
      'Yields: percent (4.25 = 4.25 %), plausible range -1..25. A blank cell (or N/A) means "not published" and stores nothing for that date x tenor — never zero.',
      "Stored as one treasury_yields row per date x tenor, tenors 1M … 30Y.",
    ],
  },
  bars: {
    title: "`bars` CSV: symbol,interval,timestamp,open,high,low,close,volume",
    notes: [
      "interval: 1d (daily) or 5m (intraday, 5 minutes)",
      "timestamp: bar START. 1d: the session date YYYY-MM-DD (or an ISO date-time at local midnight, whose calendar date is taken); stored at 00:00 UTC of that date. 5m: ISO 8601 date-time WITH zone (2025-01-17T14:35:00Z, 2025-01-17T09:35:00-05:00) on a 5-minute boundary.",
      "open, high, low, close: price per share in the instrument's currency, > 0, with low ≤ open ≤ high and low ≤ close ≤ high",
      "volume: shares, whole number ≥ 0",
    ],
  },
  chain: {
    title: "`chain` CSV (option-chain snapshot): symbol,as_of,expiry,strike,right,bid,ask,last,volume,open_interest",
    notes: [
      "symbol: the UNDERLYING symbol (must exist in instruments)",
      "as_of: snapshot time, ISO 8601 date-time WITH zone",
      "expiry: YYYY-MM-DD, not before the as_of date",
      "strike: price per share, > 0",
      "right: C | P | call | put (any case), stored C / P",
      "bid, ask: option price per share (not per contract), ≥ 0, bid ≤ ask",
      "last: last trade price per share, ≥ 0; blank = none",
      "volume, open_interest: contracts, whole numbers ≥ 0",
      "One row per contract per as_of; a contract may appear once per as_of.",
    ],
  },
  trades: {
    title:
      "`trades` CSV (option trade prints): trade_id,symbol,timestamp,expiry,strike,right,price,size,exchange,condition,bid,ask",
    notes: [
      "trade_id: the feed's unique id of the print (text, non-empty; the upsert key within an env)",
      "symbol: the UNDERLYING symbol (must exist in instruments)",
      "timestamp: print time, ISO 8601 date-time WITH zone; stored to the millisecond",
      "expiry: YYYY-MM-DD, not before the trade date; strike > 0; right C | P | call | put",
      "price: per share, > 0; size: contracts, whole number ≥ 1",
      "exchange: venue code, non-empty; condition: sale-condition code(s), may be blank; several separated by spaces, commas or semicolons. Recognised (case-insensitive): multi-leg SPRD STDL BWRT CMBO MLET MLAT MLCT MLFT MESL MASL MFSL TLET TLAT TLCT TLFT TLEV TASL TFSL; late / out of sequence LATE OSEQ OPNL; cancelled CANC CNCL CNCO CNOL; auction SLAN SLAI SLCN SLCI AUCT (see the options-flow definitions for how each is treated)",
      "bid, ask: the quote in force at the print, per share, ≥ 0, bid ≤ ask (price may print outside it)",
    ],
  },
  dividends: {
    title: "`dividends` CSV (discrete cash dividends): symbol,ex_date,amount",
    notes: [
      "symbol: the stock's symbol (must exist in instruments)",
      "ex_date: YYYY-MM-DD, the ex-dividend date: the stock trades without the dividend from that day's open",
      "amount: cash per share in USD, > 0 (0.25 = 25 cents); a special dividend is a row like any other",
      "One row per symbol and ex_date (re-importing a row updates its amount). American options of a symbol with dividends going ex before an expiry are priced on them (escrowed-dividend model, see americanModel) and its dividend_yield is then not used for that expiry.",
    ],
  },
};
