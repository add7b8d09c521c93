/**
 * A small live market for one symbol, as an operator receives it from a data vendor: instruments, daily bars, an
 * end-of-day option chain and that session's option trades (a two-venue sweep and a block), written as the importer's
 * CSV files. Dated on the last weekday before `now`: the live store only reads recent sessions, so a file with fixed
 * dates would stop being served as it ages.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const LIVE_FLOW_SYMBOL = "AAPL";
/** The import order: trades and chains need their instrument first. */
export const LIVE_FLOW_KINDS = ["instruments", "bars", "chain", "trades"] as const;

const DAY = 86_400_000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The newest `count` weekdays strictly before `now`'s UTC date, oldest first. */
function sessionsBefore(now: Date, count: number): string[] {
  const days: string[] = [];
  for (let t = Math.floor(now.getTime() / DAY) * DAY - DAY; days.length < count; t -= DAY) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.unshift(isoDate(t));
  }
  return days;
}

/** Writes the four files into a new temporary directory; returns each kind's path. */
export function writeLiveFlowFiles(now = new Date()): Record<(typeof LIVE_FLOW_KINDS)[number], string> {
  const sessions = sessionsBefore(now, 25);
  const last = sessions.at(-1) as string;
  const expiry = isoDate(new Date(`${last}T00:00:00Z`).getTime() + 24 * DAY);
  const s = LIVE_FLOW_SYMBOL;
  const bars = sessions.map((d, i) => {
    const close = 250 + Math.sin(i / 3) * 4 + i * 0.2;
    return `${s},1d,${d},${(close - 1).toFixed(2)},${(close + 2).toFixed(2)},${(close - 2).toFixed(2)},${close.toFixed(2)},${40_000_000 + i * 250_000}`;
  });
  const chainAt = `${last}T20:30:00Z`;
  const chain = [
    [245, "C", 10.1, 10.3, 12_000, 18_234],
    [245, "P", 4.6, 4.8, 9_800, 15_770],
    [250, "C", 6.95, 7.05, 15_877, 40_211],
    [250, "P", 6.4, 6.5, 11_120, 28_890],
    [255, "C", 4.6, 4.7, 16_533, 35_120],
    [255, "P", 9.05, 9.25, 3_310, 9_925],
  ].map(([k, r, bid, ask, vol, oi]) => `${s},${chainAt},${expiry},${k},${r},${bid},${ask},${ask},${vol},${oi}`);
  const at = (hhmmss: string) => `${last}T${hhmmss}Z`;
  const trades = [
    // A sweep: one contract bought at the ask on two venues within a second.
    `L-1,${s},${at("18:02:44.870")},${expiry},255,C,4.70,500,ISE,,4.60,4.70`,
    `L-2,${s},${at("18:02:44.871")},${expiry},255,C,4.70,300,ARCA,,4.60,4.70`,
    // A block: one large print sold at the bid.
    `L-3,${s},${at("19:15:05.123")},${expiry},250,P,6.40,1200,CBOE,,6.40,6.50`,
  ];
  const files = {
    instruments: [
      "symbol,name,sector,kind,next_earnings_date,dividend_yield",
      `${s},Apple Inc.,Information Technology,equity,,0.0044`,
    ],
    bars: ["symbol,interval,timestamp,open,high,low,close,volume", ...bars],
    chain: ["symbol,as_of,expiry,strike,right,bid,ask,last,volume,open_interest", ...chain],
    trades: ["trade_id,symbol,timestamp,expiry,strike,right,price,size,exchange,condition,bid,ask", ...trades],
  };
  const dir = mkdtempSync(join(tmpdir(), "live-flow-"));
  const paths = {} as Record<(typeof LIVE_FLOW_KINDS)[number], string>;
  for (const kind of LIVE_FLOW_KINDS) {
    paths[kind] = join(dir, `${kind}.csv`);
    writeFileSync(paths[kind], `${files[kind].join("\n")}\n`);
  }
  return paths;
}
