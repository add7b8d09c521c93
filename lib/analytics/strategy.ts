/**
 * Structured analysis of an options strategy for POST /api/v1/outputs: legs priced at the quote mid, net premium,
 * expiry payoff (max profit/loss, breakevens), position greeks, probability of profit, expected move and risk flags.
 */
import { bsmGreeks } from "./bsm";
import { americanGreeks, americanImpliedVol, americanPrice, exerciseValue } from "./american";
import { round } from "./round";
import { impliedVol } from "./iv";
import { analyzePayoff, probabilityOfProfit, type PayoffLeg } from "./strategy-payoff";
import {
  isCalendarDate,
  legTemplates,
  parseStrategyRequest,
  StrategyInputError,
  type LegTemplate,
  type StrategyName,
  type StrategyRequestInput,
} from "./strategy-schema";
import type { CashDividendRow, ExerciseStyle, OptionQuote } from "./types";
import { calendarDaysUntil, expectedMoveToDate } from "./vol-metrics";
import { cashDividendsBefore, yearFraction } from "./vol-surface";
import { nearest } from "../util/nearest";

export { StrategyInputError } from "./strategy-schema";

export interface StrategyContext {
  spot: number;
  asOf: Date;
  chain: OptionQuote[];
  rate: (years: number) => number; // continuous, decimal
  dividendYield: number; // continuous, decimal
  nextEarningsDate: string | null; // YYYY-MM-DD
  /** Exercise style of the symbol's options; European when unset. */
  exerciseStyle?: ExerciseStyle;
  /** The symbol's discrete cash dividends: those going ex before the expiry price American legs (see americanModel). */
  cashDividends?: readonly CashDividendRow[];
}

export interface StrategyLeg {
  action: "buy" | "sell";
  right: "call" | "put" | "stock";
  strike: number | null;
  quantity: number;
  price: number;
  iv: number | null;
  delta: number;
}

export interface StrategyOutput {
  strategy: StrategyName;
  symbol: string;
  expiry: string;
  legs: StrategyLeg[];
  netPremium: number;
  netType: "debit" | "credit";
  maxProfit: number | null;
  maxLoss: number | null;
  breakevens: number[];
  greeks: { delta: number; gamma: number; theta: number; vega: number };
  probabilityOfProfit: number | null;
  expectedMove: { move: number; movePct: number; days: number } | null;
}

export type RiskFlagCode =
  | "earnings_before_expiry"
  | "wide_spread"
  | "thin_open_interest"
  | "early_assignment_risk"
  | "short_dated"
  | "undefined_risk";
export interface RiskFlag {
  code: RiskFlagCode;
  severity: "info" | "warning" | "high";
  message: string;
}

export const WIDE_SPREAD_PCT = 0.1;
export const THIN_OI = 100;
export const SHORT_DATED_DAYS = 7;
export const DEEP_ITM_PCT = 0.05;
export const MIN_EXTRINSIC = 0.05;

export const definitions = {
  "legs[].action": "buy or sell.",
  "legs[].right": "call, put, or stock (covered_call's 100 shares per position).",
  "legs[].strike": "Strike, USD; null for stock.",
  "legs[].quantity": "Contracts for option legs (= request quantity), shares for the stock leg (100 x quantity).",
  "legs[].price": "Option quote mid (bid + ask) / 2, USD per share, 4 decimals; stock leg: spot.",
  "legs[].iv":
    "Implied vol of the leg's mid (decimal, 4 decimals), American (see americanImpliedVol) for American-style options, " +
    "Black-Scholes-Merton for European ones; null if no vol reproduces the mid; null for stock. An American leg whose mid " +
    "is its exercise value (no time value: exercising now is optimal, and every vol up to some level reproduces the " +
    "mid) takes the ATM IV when that reproduces the mid.",
  "legs[].delta":
    "Delta per share of one unit of the leg (calls 0..1, puts -1..0, stock 1) from the leg's exercise-style model (American or BSM), at the leg's IV (ATM IV when null), 4 decimals; sign not adjusted for sell.",
  netPremium:
    "Premium paid to open the position, USD: sum(+1 buy / -1 sell x price x shares), shares = 100 x contracts; positive = debit paid, negative = credit received; cents.",
  netType: "debit when netPremium >= 0, otherwise credit.",
  "greeks.delta": "Position delta, shares: sum(sign x leg delta x 100 x quantity); stock contributes its shares.",
  "greeks.gamma": "Position gamma, delta change in shares per USD 1 move of the underlying.",
  "greeks.theta": "Position theta, USD per calendar day (model theta per year / 365).",
  "greeks.vega":
    "Position vega, USD per 1 vol point (model vega / 100; 0 for an American leg where exercising now is optimal).",
  probabilityOfProfit:
    "Risk-neutral probability (0-1, 4 decimals) the expiry P&L is positive, lognormal with sigma = ATM IV (see atmIv); null without an ATM IV.",
  atmIv:
    "IV of the expiry's contract nearest spot: the strike closest to spot (ties: lower strike), its out-of-the-money contract (put below spot, call at or above), the other right if that has no IV, then the next-nearest strike.",
  expectedMove:
    "One-standard-deviation move to expiry: move = spot x ATM IV x sqrt(max(days, 1) / 365), USD; movePct = move / spot (fraction); days = calendar days from the as-of UTC date to expiry. null without an ATM IV.",
  earnings_before_expiry: "warning: the next earnings date falls between the as-of date and expiry, inclusive.",
  wide_spread: `warning: a leg's (ask - bid) / mid exceeds ${WIDE_SPREAD_PCT * 100} %.`,
  thin_open_interest: `warning: a leg's open interest is below ${THIN_OI} contracts.`,
  early_assignment_risk: `high: a short in-the-money call with dividendYield > 0 whose extrinsic value (mid - intrinsic) is below the dividend expected before expiry, S x (1 - e^(-qT)); or a short leg deep in the money (intrinsic >= ${DEEP_ITM_PCT * 100} % of spot) with extrinsic below USD ${MIN_EXTRINSIC}.`,
  short_dated: `warning: fewer than ${SHORT_DATED_DAYS} days (ACT/365, to the expiry close: 16:00 New York on the last trading day on or before expiry) remain.`,
  undefined_risk: "high: the maximum loss is unlimited.",
} as const;

const r4 = (x: number) => round(x, 4);
const r2 = (x: number) => round(x, 2);
const sameStrike = (a: number, b: number) => Math.abs(a - b) < 1e-9;
const rightName = (r: "C" | "P") => (r === "C" ? "call" : "put");

/** ATM IV of one expiry's rows (see definitions.atmIv); null when no contract solves. */
export function atmIvNearestSpot(
  rows: OptionQuote[],
  spot: number,
  solve: (q: OptionQuote, mid: number) => number | null,
): number | null {
  const strikes = [...new Set(rows.map((r) => r.strike))].sort(
    (a, b) => Math.abs(a - spot) - Math.abs(b - spot) || a - b,
  );
  for (const k of strikes) {
    const otm: "C" | "P" = k < spot ? "P" : "C";
    for (const right of [otm, otm === "C" ? "P" : "C"] as const) {
      const q = rows.find((r) => sameStrike(r.strike, k) && r.right === right);
      if (!q || !(q.bid > 0) || !(q.ask >= q.bid)) continue;
      const iv = solve(q, (q.bid + q.ask) / 2);
      if (iv !== null) return iv;
    }
  }
  return null;
}

const dayNumber = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000;

/** "; nearest listed: 2026-12-11, 2026-12-18, 2027-01-15" — open expiries of the symbol nearest the one asked for. */
function nearestExpiries(chain: readonly OptionQuote[], symbol: string, wanted: string, asOf: Date): string {
  const open = [...new Set(chain.filter((c) => c.symbol.toUpperCase() === symbol).map((c) => c.expiry))].filter(
    (e) => yearFraction(asOf, e) > 0,
  );
  const target = isCalendarDate(wanted) ? dayNumber(wanted) : dayNumber(asOf.toISOString().slice(0, 10));
  const near = nearest(open, dayNumber, target);
  return near.length ? `; nearest listed: ${near.join(", ")}` : "; the symbol has no open expiries";
}

/** "; nearest listed calls: 185, 190, 195" — strikes of the expiry with the leg's right nearest the one asked for. */
function nearestStrikes(rows: readonly OptionQuote[], right: "C" | "P", wanted: number): string {
  const near = nearest([...new Set(rows.filter((c) => c.right === right).map((c) => c.strike))], (k) => k, wanted);
  return near.length ? `; nearest listed ${rightName(right)}s: ${near.join(", ")}` : "";
}

/** The symbol's rows listed for the expiry, and its years to the expiry close; a passed or unlisted expiry is refused. */
function expiryRows(chain: OptionQuote[], symbol: string, expiry: string, asOf: Date) {
  const years = yearFraction(asOf, expiry);
  if (!(years > 0))
    throw new StrategyInputError(
      "expiry",
      `expiry ${expiry} has passed${nearestExpiries(chain, symbol, expiry, asOf)}`,
    );
  const rows = chain.filter((c) => c.symbol.toUpperCase() === symbol && c.expiry === expiry);
  if (rows.length === 0)
    throw new StrategyInputError(
      "expiry",
      `expiry ${expiry} is not listed for ${symbol}${nearestExpiries(chain, symbol, expiry, asOf)}`,
    );
  return { years, rows };
}

/** How the expiry's legs are priced: the model of the exercise style, its shared inputs and the expiry's ATM IV. */
function pricingModel(ctx: StrategyContext, years: number, rows: OptionQuote[]) {
  const { spot, asOf, dividendYield } = ctx;
  const rate = ctx.rate(years);
  const american = ctx.exerciseStyle === "american";
  const cash = american ? cashDividendsBefore(ctx.cashDividends ?? [], asOf, years) : [];
  const base = { spot, years, rate, dividendYield, ...(cash.length ? { cashDividends: cash } : {}) };
  const solve = american ? americanImpliedVol : impliedVol;
  const greeksAt = american ? americanGreeks : bsmGreeks;
  const atmIv = atmIvNearestSpot(rows, spot, (c, mid) => solve(mid, { ...base, strike: c.strike, right: c.right }));
  return { rows, base, american, solve, greeksAt, atmIv };
}

type PricingModel = ReturnType<typeof pricingModel>;

/** The request field an option leg's refusal names. */
const strikeField = (t: LegTemplate) => `strikes[${t.strikeIndex}]`;

/** The option leg's quote: listed at its strike and right, with a usable two-sided market, or the leg is refused. */
function legQuote(t: LegTemplate, right: "C" | "P", rows: OptionQuote[], expiry: string): OptionQuote {
  const field = strikeField(t);
  const strike = t.strike ?? Number.NaN; // option legs always carry one
  const atStrike = rows.filter((c) => sameStrike(c.strike, strike));
  if (atStrike.length === 0)
    throw new StrategyInputError(
      field,
      `strike ${t.strike} is not listed for expiry ${expiry}${nearestStrikes(rows, right, strike)}`,
    );
  const quote = atStrike.find((c) => c.right === right);
  if (!quote)
    throw new StrategyInputError(
      field,
      `no ${rightName(right)} is listed at strike ${t.strike} for expiry ${expiry}${nearestStrikes(rows, right, strike)}`,
    );
  if (!(quote.ask > 0) || !(quote.bid >= 0) || quote.ask < quote.bid) {
    throw new StrategyInputError(field, `the ${rightName(right)} at strike ${t.strike} has no usable two-sided quote`);
  }
  return quote;
}

/** A leg priced at its quote mid (the stock leg at spot), with its IV and greeks per share (theta a day, vega a point). */
function priceLeg(t: LegTemplate, model: PricingModel, expiry: string) {
  const { base, american, solve, atmIv } = model;
  const { spot } = base;
  if (t.right === "stock") return { t, quote: null, price: spot, iv: null, delta: 1, gamma: 0, theta: 0, vega: 0 };
  const quote = legQuote(t, t.right, model.rows, expiry);
  const price = (quote.bid + quote.ask) / 2;
  const contract = { ...base, strike: quote.strike, right: t.right };
  let iv = solve(price, contract);
  // No time value on an American leg: the ATM IV is a vol that reproduces the mid if it prices it at exercise value.
  if (iv === null && american && atmIv !== null && price <= exerciseValue(contract) + 1e-9 * spot) {
    if (Math.abs(americanPrice({ ...contract, vol: atmIv }) - price) <= 1e-9 * spot) iv = atmIv;
  }
  const vol = iv ?? atmIv;
  // Zero vol would publish the intrinsic limit as if it were a market reading; no volatility is a refusal.
  if (vol === null)
    throw new StrategyInputError(
      strikeField(t),
      `no implied volatility: neither the ${rightName(t.right)} at strike ${t.strike} nor any contract near spot for expiry ${expiry} has a mid that a volatility reproduces`,
    );
  const g = model.greeksAt({ ...contract, vol });
  return { t, quote, price, iv, delta: g.delta, gamma: g.gamma, theta: g.theta / 365, vega: g.vega / 100 };
}

type PricedTemplate = ReturnType<typeof priceLeg>;

/** The position's payoff legs (signed shares), net premium and greeks, for `quantity` positions. */
function positionOf(priced: PricedTemplate[], quantity: number) {
  // shares per leg: 100 per option contract; the stock leg's ratio is already in shares
  const shares = (p: PricedTemplate) => quantity * p.t.ratio * (p.t.right === "stock" ? 1 : 100);
  const sign = (p: PricedTemplate) => (p.t.action === "buy" ? 1 : -1);
  const payoffLegs: PayoffLeg[] = priced.map((p) => ({
    kind: p.t.right,
    strike: p.t.strike,
    units: sign(p) * shares(p),
    price: p.price,
  }));
  const netPremium = priced.reduce((s, p) => s + sign(p) * shares(p) * p.price, 0);
  const greek = (k: "delta" | "gamma" | "theta" | "vega") =>
    r4(priced.reduce((s, p) => s + sign(p) * shares(p) * p[k], 0));
  return {
    payoffLegs,
    netPremium,
    greeks: { delta: greek("delta"), gamma: greek("gamma"), theta: greek("theta"), vega: greek("vega") },
  };
}

const outputLeg = (p: PricedTemplate, quantity: number): StrategyLeg => ({
  action: p.t.action,
  right: p.t.right === "stock" ? "stock" : rightName(p.t.right),
  strike: p.t.strike,
  quantity: p.t.right === "stock" ? 100 * quantity : quantity,
  price: r4(p.price),
  iv: p.iv === null ? null : r4(p.iv),
  delta: r4(p.delta),
});

export function buildStrategyOutput(
  input: StrategyRequestInput,
  ctx: StrategyContext,
): { output: StrategyOutput; riskFlags: RiskFlag[] } {
  const req = parseStrategyRequest(input);
  const symbol = req.symbol.toUpperCase();
  const { spot, asOf } = ctx;
  if (!(spot > 0) || !Number.isFinite(spot)) throw new RangeError("ctx.spot must be a positive number");
  const { years, rows } = expiryRows(ctx.chain, symbol, req.expiry, asOf);
  const model = pricingModel(ctx, years, rows);
  const { atmIv } = model;
  const priced = legTemplates(req.strategy, req.strikes).map((t) => priceLeg(t, model, req.expiry));
  const { payoffLegs, netPremium, greeks } = positionOf(priced, req.quantity);
  const payoff = analyzePayoff(payoffLegs);
  const move = atmIv === null ? null : expectedMoveToDate(spot, atmIv, asOf, req.expiry);

  const output: StrategyOutput = {
    strategy: req.strategy,
    symbol,
    expiry: req.expiry,
    legs: priced.map((p) => outputLeg(p, req.quantity)),
    netPremium: r2(netPremium),
    netType: netPremium >= 0 ? "debit" : "credit",
    maxProfit: payoff.maxProfit === null ? null : r2(payoff.maxProfit),
    maxLoss: payoff.maxLoss === null ? null : r2(payoff.maxLoss),
    breakevens: payoff.breakevens.map(r4),
    greeks,
    probabilityOfProfit: atmIv === null ? null : r4(probabilityOfProfit(payoffLegs, { ...model.base, vol: atmIv })),
    expectedMove: move && { move: r2(move.move), movePct: r4(move.movePct), days: move.days },
  };
  return {
    output,
    riskFlags: strategyRiskFlags(priced, { ...ctx, years, expiry: req.expiry, unlimitedLoss: payoff.maxLoss === null }),
  };
}

/** A priced leg as the risk checks see it (quote null for the stock leg). */
export interface PricedLeg {
  t: { action: "buy" | "sell"; right: "C" | "P" | "stock"; strike: number | null };
  quote: OptionQuote | null;
  price: number;
}

export interface RiskContext extends StrategyContext {
  years: number; // ACT/365 to the expiry close
  expiry: string;
  unlimitedLoss: boolean;
}

/** Risk flags of a priced position, in a fixed code order (see definitions). */
export function strategyRiskFlags(legs: PricedLeg[], c: RiskContext): RiskFlag[] {
  const flags: RiskFlag[] = [];
  const opts = legs.filter((l): l is PricedLeg & { quote: OptionQuote } => l.quote !== null);
  const label = (l: PricedLeg) => `${l.t.action} ${rightName(l.t.right as "C" | "P")} ${l.t.strike}`;
  const days = calendarDaysUntil(c.asOf, c.expiry);
  if (c.nextEarningsDate !== null) {
    const toEarnings = calendarDaysUntil(c.asOf, c.nextEarningsDate);
    if (toEarnings >= 0 && toEarnings <= days) {
      flags.push({
        code: "earnings_before_expiry",
        severity: "warning",
        message: `Earnings on ${c.nextEarningsDate} fall before expiry ${c.expiry}; implied vol and the price can gap.`,
      });
    }
  }
  const wide = opts.filter((l) => {
    const mid = (l.quote.bid + l.quote.ask) / 2;
    return mid > 0 && (l.quote.ask - l.quote.bid) / mid > WIDE_SPREAD_PCT;
  });
  if (wide.length > 0) {
    flags.push({
      code: "wide_spread",
      severity: "warning",
      message: `Bid-ask spread above ${WIDE_SPREAD_PCT * 100} % of mid on: ${wide.map(label).join(", ")}.`,
    });
  }
  const thin = opts.filter((l) => l.quote.openInterest < THIN_OI);
  if (thin.length > 0) {
    flags.push({
      code: "thin_open_interest",
      severity: "warning",
      message: `Open interest below ${THIN_OI} contracts on: ${thin.map(label).join(", ")}.`,
    });
  }
  const divToExpiry = c.spot * (1 - Math.exp(-c.dividendYield * c.years));
  const assign = opts.filter((l) => {
    if (l.t.action !== "sell") return false;
    const k = l.t.strike ?? Number.NaN; // option legs always carry one
    const intrinsic = Math.max(l.t.right === "C" ? c.spot - k : k - c.spot, 0);
    const extrinsic = l.price - intrinsic;
    const dividendRisk = l.t.right === "C" && intrinsic > 0 && c.dividendYield > 0 && extrinsic < divToExpiry;
    const deep = intrinsic >= DEEP_ITM_PCT * c.spot && extrinsic < MIN_EXTRINSIC;
    return dividendRisk || deep;
  });
  if (assign.length > 0) {
    flags.push({
      code: "early_assignment_risk",
      severity: "high",
      message: `Short in-the-money leg(s) with little time value may be assigned early: ${assign.map(label).join(", ")}.`,
    });
  }
  if (c.years * 365 < SHORT_DATED_DAYS) {
    flags.push({
      code: "short_dated",
      severity: "warning",
      message: `Fewer than ${SHORT_DATED_DAYS} days to expiry: time decay and gamma are high.`,
    });
  }
  if (c.unlimitedLoss) {
    flags.push({ code: "undefined_risk", severity: "high", message: "The maximum loss is unlimited." });
  }
  return flags;
}
