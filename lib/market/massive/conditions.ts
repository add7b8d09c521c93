/**
 * Massive's numeric option trade conditions (`GET /v3/reference/conditions?asset_class=options`, documented at
 * https://massive.com/docs/rest/options/market-operations/condition-codes — the OPRA sale conditions) mapped onto the
 * flow rules' categories (lib/analytics/trade-conditions.ts). The mapping is data: one row per vendor id, with the
 * vendor's name, so an operator can check it against the live list. Ids not listed carry no flag and are kept as
 * `C<id>` in the stored condition.
 */
export type ConditionCategory = "regular" | "multi_leg" | "late" | "cancelled" | "auction" | "intermarket_sweep";

export interface VendorCondition {
  id: number;
  name: string;
  /** One or more categories; a multi-leg auction is both. */
  categories: readonly ConditionCategory[];
}

export const MASSIVE_OPTION_CONDITIONS: readonly VendorCondition[] = [
  { id: 201, name: "Canceled", categories: ["cancelled"] },
  { id: 202, name: "Late and Out Of Sequence", categories: ["late"] },
  { id: 203, name: "Last and Canceled", categories: ["cancelled"] },
  { id: 204, name: "Late", categories: ["late"] },
  { id: 205, name: "Opening Trade and Canceled", categories: ["cancelled"] },
  { id: 206, name: "Opening Trade, Late, and Out Of Sequence", categories: ["late"] },
  { id: 207, name: "Only Trade and Canceled", categories: ["cancelled"] },
  { id: 208, name: "Opening Trade and Late", categories: ["late"] },
  { id: 209, name: "Automatic Execution", categories: ["regular"] },
  { id: 210, name: "Reopening Trade", categories: ["regular"] },
  { id: 219, name: "Intermarket Sweep Order", categories: ["intermarket_sweep"] },
  { id: 227, name: "Single Leg Auction Non ISO", categories: ["auction"] },
  { id: 228, name: "Single Leg Auction ISO", categories: ["auction", "intermarket_sweep"] },
  { id: 229, name: "Single Leg Cross Non ISO", categories: ["auction"] },
  { id: 230, name: "Single Leg Cross ISO", categories: ["auction", "intermarket_sweep"] },
  { id: 231, name: "Single Leg Floor Trade", categories: ["regular"] },
  { id: 232, name: "Multi Leg auto-electronic trade", categories: ["multi_leg"] },
  { id: 233, name: "Multi Leg Auction", categories: ["multi_leg", "auction"] },
  { id: 234, name: "Multi Leg Cross", categories: ["multi_leg", "auction"] },
  { id: 235, name: "Multi Leg floor trade", categories: ["multi_leg"] },
  { id: 236, name: "Multi Leg auto-electronic trade against single leg(s)", categories: ["multi_leg"] },
  { id: 237, name: "Stock Options Auction", categories: ["multi_leg", "auction"] },
  { id: 238, name: "Multi Leg Auction against single leg(s)", categories: ["multi_leg", "auction"] },
  { id: 239, name: "Multi Leg floor trade against single leg(s)", categories: ["multi_leg"] },
  { id: 240, name: "Stock Options auto-electronic trade", categories: ["multi_leg"] },
  { id: 241, name: "Stock Options Cross", categories: ["multi_leg", "auction"] },
  { id: 242, name: "Stock Options floor trade", categories: ["multi_leg"] },
  { id: 243, name: "Stock Options auto-electronic trade against single leg(s)", categories: ["multi_leg"] },
  { id: 244, name: "Stock Options Auction against single leg(s)", categories: ["multi_leg", "auction"] },
  { id: 245, name: "Stock Options floor trade against single leg(s)", categories: ["multi_leg"] },
  { id: 246, name: "Multi Leg Floor Trade of Proprietary Products", categories: ["multi_leg"] },
];

/** The stored code (lib/analytics/trade-conditions.ts) each category is written as. */
export const CATEGORY_CODES: Record<ConditionCategory, string | null> = {
  regular: null,
  multi_leg: "MLET",
  late: "LATE",
  cancelled: "CANC",
  auction: "AUCT",
  intermarket_sweep: "ISOI",
};

const BY_ID = new Map(MASSIVE_OPTION_CONDITIONS.map((c) => [c.id, c]));

/** The stored condition text of a print's vendor condition ids: category codes, unknown ids as `C<id>`. */
export function conditionText(ids: readonly unknown[] | undefined): string {
  const out = new Set<string>();
  for (const raw of ids ?? []) {
    const id = Number(raw);
    if (!Number.isInteger(id)) continue;
    const known = BY_ID.get(id);
    if (!known) {
      out.add(`C${id}`);
      continue;
    }
    for (const c of known.categories) {
      const code = CATEGORY_CODES[c];
      if (code) out.add(code);
    }
  }
  return [...out].join(" ");
}
