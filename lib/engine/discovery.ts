/** Discovery payloads: which instruments have data, and which expiries and strikes a strategy request may name. */
import type { Instrument, OptionQuote } from "../analytics/types";
import { yearFraction } from "../analytics/vol-surface";
import type { SymbolAnalytics } from "./compute";

export interface ListedExpiry {
  expiry: string;
  /** Strikes at which both the call and the put have a usable two-sided quote. */
  strikes: number[];
}

const usable = (q: OptionQuote) => q.ask > 0 && q.bid >= 0 && q.ask >= q.bid && Number.isFinite(q.ask);

export function symbolEntry(instrument: Instrument, analytics: SymbolAnalytics | undefined) {
  return {
    symbol: instrument.symbol,
    name: instrument.name,
    sector: instrument.sector,
    type: instrument.kind,
    asOf: analytics ? analytics.asOf.toISOString() : null,
  };
}

/** Every expiry of the newest chain with its strikes, ascending; expiries without a usable strike are left out. */
export function listedExpiries(chain: readonly OptionQuote[]): ListedExpiry[] {
  const rights = new Map<string, Map<number, Set<string>>>();
  for (const q of chain) {
    if (!usable(q)) continue;
    let byStrike = rights.get(q.expiry);
    if (!byStrike) rights.set(q.expiry, (byStrike = new Map()));
    let set = byStrike.get(q.strike);
    if (!set) byStrike.set(q.strike, (set = new Set()));
    set.add(q.right);
  }
  return [...rights]
    .map(([expiry, byStrike]) => ({
      expiry,
      strikes: [...byStrike]
        .filter(([, s]) => s.size === 2)
        .map(([k]) => k)
        .sort((a, b) => a - b),
    }))
    .filter((e) => e.strikes.length > 0)
    .sort((a, b) => a.expiry.localeCompare(b.expiry));
}

/** The expiries not yet passed at `now`, with calendar days to go. */
export function openExpiries(listed: readonly ListedExpiry[], now: Date) {
  return listed
    .filter((e) => yearFraction(now, e.expiry) > 0)
    .map((e) => ({
      expiry: e.expiry,
      days: Math.max(
        0,
        Math.round((Date.parse(`${e.expiry}T00:00:00Z`) - Date.parse(now.toISOString().slice(0, 10))) / 86_400_000),
      ),
      strikes: e.strikes,
    }));
}
