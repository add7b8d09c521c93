/**
 * Option trade sale-condition codes (OPRA message types and the common vendor spellings), classified for flow
 * analysis. A print's condition may hold several codes separated by spaces, commas or semicolons; matching is
 * case-insensitive; unknown codes carry no flag.
 */
export interface ConditionFlags {
  /** Part of a multi-leg order (spread, straddle, combo, buy-write, stock-option): its price says nothing about one leg's side. */
  multiLeg: boolean;
  /** Reported late or out of sequence: the quote in force at its timestamp is not the one it traded against. */
  late: boolean;
  /** Cancelled (or a cancel of an earlier print): not a trade. */
  cancelled: boolean;
  /** Executed in an auction (price-improvement or crossing mechanism): one venue by design, never part of a sweep. */
  auction: boolean;
}

export const MULTI_LEG_CODES = [
  "SPRD",
  "STDL",
  "BWRT",
  "CMBO",
  "MLET",
  "MLAT",
  "MLCT",
  "MLFT",
  "MESL",
  "MASL",
  "MFSL",
  "TLET",
  "TLAT",
  "TLCT",
  "TLFT",
  "TLEV",
  "TASL",
  "TFSL",
  "MULTI",
  "SPREAD",
  "COMBO",
  "STRADDLE",
] as const;
export const LATE_CODES = ["LATE", "OSEQ", "OPNL", "OUT_OF_SEQUENCE"] as const;
export const CANCELLED_CODES = ["CANC", "CNCL", "CNCO", "CNOL", "CANCEL", "CANCELLED"] as const;
export const AUCTION_CODES = [
  "SLAN",
  "SLAI",
  "SLCN",
  "SLCI",
  "MLAT",
  "TLAT",
  "TASL",
  "MASL",
  "AUCT",
  "AUCTION",
] as const;

const has = (list: readonly string[], codes: readonly string[]) => codes.some((c) => list.includes(c));

export const definitions = {
  conditions:
    `Trade condition codes (case-insensitive; several per print separated by spaces, commas or semicolons): multi-leg ${MULTI_LEG_CODES.join(", ")}; ` +
    `late or out of sequence ${LATE_CODES.join(", ")}; cancelled ${CANCELLED_CODES.join(", ")}; auction ${AUCTION_CODES.join(", ")}. ` +
    "Cancelled prints are dropped. Multi-leg prints count toward a contract's day volume but never infer a side and never " +
    "form a sweep, block or unusual event. Late and out-of-sequence prints have side unknown and never join a sweep; " +
    "auction prints never join a sweep. Other codes (e.g. AUTO, ISOI) carry no flag.",
} as const;

export function conditionFlags(condition: string | null | undefined): ConditionFlags {
  const codes = (condition ?? "")
    .toUpperCase()
    .split(/[\s,;]+/)
    .filter(Boolean);
  return {
    multiLeg: has(codes, MULTI_LEG_CODES),
    late: has(codes, LATE_CODES),
    cancelled: has(codes, CANCELLED_CODES),
    auction: has(codes, AUCTION_CODES),
  };
}
