/**
 * OCC option symbols as Massive writes them: `O:` + root (1–6 characters) + YYMMDD + C|P + strike × 1000 in 8 digits,
 * e.g. O:AAPL230616C00150000 = AAPL call, 16 Jun 2023, strike 150. The one place they are parsed and validated.
 */
type OptionRight = "C" | "P";

export interface OccContract {
  /** The option root as written (may differ from the underlying after corporate actions, e.g. AAPL1). */
  root: string;
  expiry: string;
  right: OptionRight;
  strike: number;
}

const OCC = /^O:([A-Z0-9.]{1,6})(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

/** The contract an OCC ticker names, or null when it is not one (wrong shape, impossible date, zero strike). */
export function parseOccTicker(ticker: string): OccContract | null {
  const m = OCC.exec(ticker);
  if (!m) return null;
  const [, root, yy, mm, dd, right, strike] = m;
  const expiry = `20${yy}-${mm}-${dd}`;
  const d = new Date(`${expiry}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== expiry) return null;
  const value = Number(strike) / 1000;
  if (!(value > 0)) return null;
  return { root, expiry, right: right as OptionRight, strike: value };
}

/**
 * Roots that list another underlying's options: index weeklies and PM-settled series (Cboe's SPXW, RUTW, VIXW; Nasdaq's
 * NDXP). Data: add a root here when a configured index lists a series under a root of its own.
 */
export const ROOT_ALIASES: Readonly<Record<string, string>> = { SPXW: "SPX", RUTW: "RUT", VIXW: "VIX", NDXP: "NDX" };

/**
 * The underlying an option root trades on, or null for an adjusted root: after a split or merger the OCC gives the old
 * contracts a root ending in a digit (AAPL1), whose deliverable is no longer 100 shares, so no price of ours fits it.
 */
export function underlyingOfRoot(root: string): string | null {
  if (/\d$/.test(root)) return null;
  return ROOT_ALIASES[root] ?? root;
}

export const ADJUSTED_CONTRACT = "adjusted contract (non-standard deliverable)";

/** Why a parsed contract is not one of `symbol`'s standard contracts, or null when it is. */
export function rootMismatch(occ: OccContract, symbol: string): string | null {
  const underlying = underlyingOfRoot(occ.root);
  if (underlying === null) return ADJUSTED_CONTRACT;
  return underlying === symbol ? null : "contract of another underlying";
}

/** Builds the OCC ticker of a contract (the inverse of parseOccTicker). */
export function occTicker(root: string, expiry: string, right: OptionRight, strike: number): string {
  const date = expiry.slice(2).replaceAll("-", "");
  return `O:${root}${date}${right}${String(Math.round(strike * 1000)).padStart(8, "0")}`;
}

/** Unix nanoseconds (number or decimal string) to a Date at millisecond precision; null when not a time. */
export function fromNanos(ns: unknown): Date | null {
  if (typeof ns === "number" && Number.isFinite(ns) && ns > 0) return new Date(Math.floor(ns / 1e6));
  if (typeof ns === "string" && /^\d{10,19}$/.test(ns)) return new Date(Number(BigInt(ns) / 1_000_000n));
  return null;
}
