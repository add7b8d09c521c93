/**
 * Request schema of POST /api/v1/outputs (a structured options-strategy analysis) and the leg structure each
 * strategy name stands for.
 */
import { z } from "zod";
import { SYMBOL_PATTERN } from "./types";

export const STRATEGIES = [
  "long_call",
  "long_put",
  "bull_call_spread",
  "bear_put_spread",
  "bull_put_spread",
  "bear_call_spread",
  "straddle",
  "strangle",
  "iron_condor",
  "covered_call",
] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** Number of strikes each strategy takes; strikes are given strictly ascending. */
export const STRIKE_COUNT: Record<StrategyName, 1 | 2 | 4> = {
  long_call: 1,
  long_put: 1,
  straddle: 1,
  covered_call: 1,
  bull_call_spread: 2,
  bear_put_spread: 2,
  bull_put_spread: 2,
  bear_call_spread: 2,
  strangle: 2,
  iron_condor: 4,
};

export const QUANTITY_MAX = 1000;

/** A 400-class input problem; `field` names the offending request field, e.g. "strikes[1]". */
export class StrategyInputError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = "StrategyInputError";
    this.field = field;
  }
}

// Case-insensitive on input (docs/api-contract.md §1); the engine answers upper-case.
const SYMBOL_RE = new RegExp(SYMBOL_PATTERN.source, "i");
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const isCalendarDate = (s: string) =>
  DATE_RE.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** Count and order rule for the strikes of a strategy: first violation, or null. */
export function strikeShapeIssue(strategy: StrategyName, strikes: number[]): { field: string; message: string } | null {
  const n = STRIKE_COUNT[strategy];
  if (strikes.length !== n) {
    return {
      field: "strikes",
      message: `${strategy} takes exactly ${n} strike${n > 1 ? "s" : ""}, got ${strikes.length}`,
    };
  }
  for (let i = 0; i < strikes.length; i++) {
    if (!Number.isFinite(strikes[i]) || strikes[i] <= 0)
      return { field: `strikes[${i}]`, message: "strike must be a positive number" };
    if (i > 0 && !(strikes[i] > strikes[i - 1])) {
      return { field: `strikes[${i}]`, message: "strikes must be strictly ascending" };
    }
  }
  return null;
}

export const strategyRequestSchema = z
  .object({
    symbol: z
      .string()
      .regex(SYMBOL_RE, "must be a ticker symbol: 1–6 letters, optionally . or - and 1–2 letters")
      .describe("Underlying symbol, case-insensitive, e.g. AAPL or BRK.B."),
    strategy: z
      .enum(STRATEGIES)
      .describe(
        "Strategy to analyse. Legs: long_call buy C(K); long_put buy P(K); bull_call_spread buy C(L) sell C(H); " +
          "bear_put_spread buy P(H) sell P(L); bull_put_spread sell P(H) buy P(L); bear_call_spread sell C(L) buy C(H); " +
          "straddle buy C(K) buy P(K); strangle buy P(L) buy C(H); iron_condor buy P(1) sell P(2) sell C(3) buy C(4); " +
          "covered_call buy 100 shares per contract, sell C(K).",
      ),
    expiry: z
      .string()
      .refine(isCalendarDate, "expiry must be a calendar date YYYY-MM-DD")
      .describe("Option expiry date, YYYY-MM-DD; must be listed in the symbol's chain and not passed."),
    strikes: z
      .array(z.number().positive().finite())
      .min(1)
      .max(4)
      .describe(
        "Strikes, USD, strictly ascending. 1 for long_call, long_put, straddle, covered_call; 2 (low, high) for the " +
          "verticals and strangle; 4 for iron_condor (put long, put short, call short, call long). Each must be listed for the expiry.",
      ),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(QUANTITY_MAX)
      .default(1)
      .describe(`Number of positions (contracts per option leg), integer 1..${QUANTITY_MAX}; default 1.`),
  })
  .strict()
  .superRefine((req, ctx) => {
    const issue = strikeShapeIssue(req.strategy, req.strikes);
    if (issue) {
      const m = /^strikes\[(\d+)\]$/.exec(issue.field);
      ctx.addIssue({ code: "custom", path: m ? ["strikes", Number(m[1])] : ["strikes"], message: issue.message });
    }
  });

export type StrategyRequest = z.output<typeof strategyRequestSchema>;
export type StrategyRequestInput = z.input<typeof strategyRequestSchema>;

/** Formats a zod issue path as a field name: ["strikes", 1] -> "strikes[1]". */
export function fieldOf(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out || "body";
}

/** Validates an untrusted request body; throws StrategyInputError naming the first offending field. */
export function parseStrategyRequest(body: unknown): StrategyRequest {
  const r = strategyRequestSchema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  if (issue.code === "unrecognized_keys") {
    return fail(fieldOf([...issue.path, issue.keys[0]]), `unknown field ${issue.keys[0]}`);
  }
  return fail(fieldOf(issue.path), issue.message);
}

function fail(field: string, message: string): never {
  throw new StrategyInputError(field, message);
}

export interface LegTemplate {
  action: "buy" | "sell";
  right: "C" | "P" | "stock";
  strike: number | null;
  /** Index into the request's strikes (null for the stock leg). */
  strikeIndex: number | null;
  /** Units per position: 1 contract per option leg, 100 shares for the stock leg. */
  ratio: number;
}

/** Legs of one position, in a fixed order: puts and calls ascending by strike as listed, then stock. */
export function legTemplates(strategy: StrategyName, strikes: number[]): LegTemplate[] {
  const opt = (action: "buy" | "sell", right: "C" | "P", i: number): LegTemplate => ({
    action,
    right,
    strike: strikes[i],
    strikeIndex: i,
    ratio: 1,
  });
  switch (strategy) {
    case "long_call":
      return [opt("buy", "C", 0)];
    case "long_put":
      return [opt("buy", "P", 0)];
    case "bull_call_spread":
      return [opt("buy", "C", 0), opt("sell", "C", 1)];
    case "bear_put_spread":
      return [opt("sell", "P", 0), opt("buy", "P", 1)];
    case "bull_put_spread":
      return [opt("buy", "P", 0), opt("sell", "P", 1)];
    case "bear_call_spread":
      return [opt("sell", "C", 0), opt("buy", "C", 1)];
    case "straddle":
      return [opt("buy", "C", 0), opt("buy", "P", 0)];
    case "strangle":
      return [opt("buy", "P", 0), opt("buy", "C", 1)];
    case "iron_condor":
      return [opt("buy", "P", 0), opt("sell", "P", 1), opt("sell", "C", 2), opt("buy", "C", 3)];
    case "covered_call":
      return [opt("sell", "C", 0), { action: "buy", right: "stock", strike: null, strikeIndex: null, ratio: 100 }];
  }
}

export const definitions = {
  symbol: "Underlying symbol, case-insensitive on input, upper-case in output.",
  strategy: `One of ${STRATEGIES.join(", ")}.`,
  expiry: "Expiry date of all option legs, YYYY-MM-DD.",
  strikes:
    "Strikes in USD, strictly ascending; count per strategy: 1 (long_call, long_put, straddle, covered_call), 2 (verticals, strangle), 4 (iron_condor).",
  quantity: `Positions, integer 1..${QUANTITY_MAX} (default 1): contracts per option leg; the covered_call stock leg is 100 shares per position.`,
} as const;
