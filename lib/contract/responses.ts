/** Public `data` shapes of every route; the OpenAPI reference is generated from these. */
import { z } from "zod";
import { FLOW_SIDES } from "../analytics/flow";
import { webhook, webhookCreated, webhookList } from "./webhooks";

const num = (d: string) => z.number().describe(d);
const nnum = (d: string) => z.number().nullable().describe(d);
const component = z.object({
  name: z.string(),
  value: z.number().nullable().describe("The input value of the component (units per its definition)."),
  weight: num("Weight of the component in the composite (weights of the used components sum to 1)."),
  score: num("Component sub-score, 0–100 (or −1…+1 for directional signal components, see definitions)."),
  contribution: num("weight × score."),
});
const signalComponent = component.extend({
  available: z.boolean().describe("false when the input was missing (it then counts as neutral)."),
  directional: z.boolean().describe("true for components that push the score up or down."),
});
const sentimentComponent = component.extend({
  baseWeight: num("The component's nominal weight before renormalisation over the available components."),
});

const metricsA = z.object({
  atm_iv_30d: nnum("30-day constant-maturity at-the-money implied volatility, decimal (0.25 = 25 %)."),
  iv_rank: nnum("IV rank, 0–100: (today − min) / (max − min) of atm_iv_30d over the lookback."),
  iv_percentile: nnum("IV percentile, 0–100: share of lookback days whose atm_iv_30d was below today's."),
  iv_lookback_days: num("Number of daily observations behind iv_rank and iv_percentile (up to 252)."),
  hv_30d: nnum("30-session close-to-close realised volatility, annualised, decimal."),
  put_call_volume_ratio: nnum("Put volume / call volume across the chain."),
  put_call_oi_ratio: nnum("Put open interest / call open interest across the chain."),
  skew_25d: nnum("IV of the 25-delta put minus IV of the 25-delta call, decimal vol, expiry nearest 30 days."),
  term_slope: nnum("90-day minus 30-day constant-maturity ATM IV, decimal vol."),
  liquidity_score: num("0–100: 50 % spread, 25 % volume, 25 % open-interest components."),
  avg_spread_pct: nnum("Mean (ask − bid) / mid of contracts within ±10 % of spot, fraction."),
  momentum_20d: nnum("20-session return, decimal."),
  trend_50d: nnum("Close / 50-session simple moving average − 1, decimal."),
  expected_move: z
    .object({
      date: z.string().describe("The earnings date, YYYY-MM-DD (New York)."),
      days: num("Calendar days from the as-of date in New York to the event."),
      move: num("Expected move into the event, USD (see expectedMoveEvent)."),
      move_pct: num("move as a fraction of spot."),
      event_move_pct: nnum(
        "The event's own one-standard-deviation move as a fraction of spot, sqrt(ve) from the split of the ATM total " +
          "variance into base and event (see expectedMoveEvent); null when the chain prices no event premium.",
      ),
      base_source: z
        .enum(["expiry_before", "expiries_after", "hv30"])
        .nullable()
        .describe(
          "Where the base (diffusive) variance rate of the split came from: expiry_before, the nearest expiry closing " +
            "before the event; expiries_after, the first two expiries after it; hv30, the 30-session realised vol " +
            "(one expiry after the event and none before it). Null when the chain prices no event premium.",
        ),
      timing: z
        .enum(["before_open", "after_close"])
        .nullable()
        .describe(
          "When the earnings are reported on their date, as imported: before_open (options expiring that day carry " +
            "the event) or after_close (they stop trading at that day's close, before the event). Null: unknown, an " +
            "expiry on the event date is then left out of the split (see earningsTiming).",
        ),
    })
    .nullable()
    .describe(
      "Expected move to the next earnings date, with the event variance counted in full (see expectedMoveEvent): " +
        "move in USD, move_pct and event_move_pct fractions of spot. Null without an earnings date ahead, without a " +
        "usable ATM IV on an expiry carrying the event, or when a single expiry follows the event, none precedes it " +
        "and there is no hv_30d to separate the base vol from the event (unknown).",
    ),
  forwards: z
    .array(
      z.object({
        expiry: z.string().describe("Expiry date, YYYY-MM-DD."),
        forward: num("The forward of this expiry, USD per share (see impliedForward)."),
        implied_yield: num(
          "The carry yield the forward implies, q = r − ln(F/S)/T: dividends plus borrow, continuous, decimal.",
        ),
        source: z
          .enum(["parity", "yield"])
          .describe(
            "parity: stripped from put–call parity on the liquid strikes near the money; yield: the fallback " +
              "S·e^((r−q)T) with the instrument's dividend yield, when parity could not be formed.",
          ),
      }),
    )
    .describe(
      "Per listed expiry (ascending), the forward every IV, delta, moneyness, ATM and skew figure of that expiry uses.",
    ),
});

const listedExpiry = z.object({
  expiry: z.string().describe("Expiry date, YYYY-MM-DD."),
  strikes: z
    .array(z.number())
    .describe(
      "Strikes (USD, ascending) at which both the call and the put have a usable two-sided quote: any of them may " +
        "be named in POST /api/v1/outputs.",
    ),
});

export const schemas = {
  symbols: z.object({
    symbols: z.array(
      z.object({
        symbol: z.string().describe("Ticker symbol as answered (upper-case)."),
        name: z.string(),
        sector: z.string(),
        type: z
          .enum(["equity", "etf", "index", "volatility_index"])
          .describe("Instrument type; only equities have earnings dates."),
        asOf: z
          .string()
          .nullable()
          .describe("As-of time of the newest data for the symbol (ISO 8601); null when the store has none yet."),
      }),
    ),
    count: num("Number of symbols."),
  }),
  listedExpiries: z.array(listedExpiry),
  expiries: z.object({
    symbol: z.string(),
    type: z.enum(["equity", "etf", "index", "volatility_index"]),
    spot: num("Last price of the underlying, USD."),
    expiries: z
      .array(listedExpiry.extend({ days: num("Calendar days from today (UTC) to the expiry.") }))
      .describe(
        "Open expiries of the newest chain, ascending; empty when the symbol has no listed options (VIX in the demo " +
          "market).",
      ),
    count: num("Number of expiries."),
    asOf: z.string().describe("As-of time of the chain (ISO 8601)."),
  }),
  tickerSummary: z.object({
    symbol: z.string(),
    name: z.string(),
    price: num("Last price of the underlying, USD."),
    service_score: num("Composite signal score, integer 0–100 (50 = neutral)."),
    sentiment: z.enum(["bullish", "bearish", "neutral"]),
    risk_level: z.enum(["low", "moderate", "elevated", "high"]),
    summary: z.string().describe("Generated deterministically from the numbers."),
    iv_rank: nnum("See signal-score metrics.iv_rank."),
    atm_iv_30d: nnum("See signal-score metrics.atm_iv_30d."),
    as_of: z.string().describe("As-of time of the newest data used (ISO 8601)."),
  }),
  signalScore: z.object({
    symbol: z.string(),
    service_score: num(
      "Composite signal score, integer 0–100: round(50 + 50 × weighted mean of directional components).",
    ),
    sentiment: z.enum(["bullish", "bearish", "neutral"]),
    risk_level: z.enum(["low", "moderate", "elevated", "high"]),
    confidence: num("Agreement of the directional signals, 0–1."),
    bias: z.enum(["long", "short", "neutral"]),
    components: z.array(signalComponent),
    risk_points: num("Risk points 0–8 behind risk_level: the sum of risk_factors[].points."),
    risk_factors: z
      .array(
        z.object({
          name: z.enum(["iv_rank", "hv30", "days_to_earnings", "liquidity"]),
          value: z.number().nullable().describe("The input (null when unavailable: it then adds no points)."),
          points: num("0, 1 or 2 points, per the risk_level definition."),
        }),
      )
      .describe("The inputs behind risk_points, in the order iv_rank, hv30, days_to_earnings, liquidity."),
    metrics: metricsA,
    as_of: z.string(),
  }),
  optionsFlow: z.object({
    events: z.array(
      z.object({
        id: z.string().describe("Stable identifier of the event (a hash, not a trade id)."),
        symbol: z.string(),
        time: z.string(),
        type: z.enum(["sweep", "block", "unusual"]),
        contract: z.object({ expiry: z.string(), strike: z.number(), right: z.enum(["call", "put"]) }),
        size: num("Contracts in the event."),
        avg_price: num("Size-weighted average price per share, USD."),
        premium: num("price × size × 100 (contract multiplier), USD."),
        side: z.enum(FLOW_SIDES),
        sentiment: z.enum(["bullish", "bearish", "neutral"]),
        exchange_count: num("Distinct exchanges in the event (sweeps: 2 or more)."),
        unusual: z.boolean().describe("Cumulative day volume of the contract exceeded its open interest."),
        volume_oi_ratio: nnum("Cumulative day volume / open interest at the event."),
      }),
    ),
    count: num("Number of events returned."),
  }),
  aiSummary: z.object({
    symbol: z.string(),
    summary: z.string(),
    confidence: num("Agreement of the directional signals, 0–1."),
    bias: z.enum(["long", "short", "neutral"]),
    serviceScore: num("Composite signal score 0–100."),
    sentiment: z.enum(["bullish", "bearish", "neutral"]),
    isMockData: z.boolean(),
    disclaimer: z.string(),
    asOf: z.string(),
  }),
  noTrade: z.object({
    symbol: z.string(),
    decision: z
      .enum(["trade", "caution", "no_trade"])
      .describe("no_trade if any check fails; caution if two or more warn; else trade."),
    reasons: z.array(z.object({ category: z.string(), checkId: z.string(), message: z.string() })),
    checks: z.array(
      z.object({
        id: z.string(),
        category: z.string(),
        status: z.enum(["pass", "warn", "fail"]),
        value: z.number().nullable(),
        threshold: z.object({ warn: z.number(), fail: z.number() }),
        direction: z.enum(["higher_is_worse", "lower_is_worse"]),
        unit: z.string(),
        explanation: z.string(),
      }),
    ),
    categories: z.array(z.string()).describe("The 8 risk categories."),
    disclaimer: z.string(),
    asOf: z.string(),
  }),
  yieldCurve: z.object({
    date: z.string().describe("Date of the newest curve (YYYY-MM-DD)."),
    oldestDate: z
      .string()
      .describe("Oldest publication date among the points (YYYY-MM-DD); at most 7 days before date."),
    curve: z.array(
      z.object({
        tenor: z.string(),
        years: z.number(),
        yieldPct: num("Par yield, percent."),
        date: z.string().describe("Publication date of this tenor's yield."),
      }),
    ),
    interpolation: z.string().describe("How yields between tenors are read: linear in years, flat beyond the ends."),
    inversion: z
      .object({ "10y2y": z.boolean(), "10y3m": z.boolean() })
      .describe("true when the 10-year yield is below the 2-year (3-month) yield."),
    spread10y2y: nnum("10-year minus 2-year par yield, basis points."),
    spread10y3m: nnum("10-year minus 3-month par yield, basis points."),
    shape: z.string(),
    unit: z.literal("bp").describe("Unit of the spreads."),
    timestamp: z.string(),
  }),
  marketSentiment: z.object({
    score: num("Composite 0–100 (0 extreme fear, 100 extreme greed)."),
    label: z.enum(["extreme_fear", "fear", "neutral", "greed", "extreme_greed"]),
    coverage: num("Share of the base weight whose inputs were available, 0–1."),
    components: z.array(sentimentComponent),
    missing: z
      .array(z.string())
      .describe("Components left out for lack of data; the others' weights are renormalised."),
    timestamp: z.string(),
  }),
  watchlistRanking: z.object({
    symbols: z
      .array(z.string())
      .describe("The requested symbols, upper-case, de-duplicated (ranked and unknown ones)."),
    ranked: z.array(
      z.object({
        rank: z.number(),
        symbol: z.string(),
        score: num("0.6 × IV rank + 0.4 × liquidity score, 0–100."),
        ivRank: z.number().nullable(),
        liquidityScore: z.number(),
        decision: z.enum(["trade", "caution", "no_trade"]),
      }),
    ),
    noTradeCount: num("How many of the symbols have decision no_trade."),
    unknown: z
      .array(
        z.object({
          symbol: z.string(),
          reason: z
            .enum(["symbol_not_found", "data_source_unavailable"])
            .describe(
              "symbol_not_found: the service has no such instrument; data_source_unavailable: the instrument exists " +
                "but has no data right now.",
            ),
          message: z.string(),
        }),
      )
      .describe(
        "Requested symbols left out of the ranking, in request order, each with the reason. Empty when every symbol " +
          "was ranked; when none can be ranked the call fails with the first symbol's error instead.",
      ),
    timestamp: z.string(),
  }),
  researchOutput: z.object({
    output: z.object({
      strategy: z.string(),
      symbol: z.string(),
      expiry: z.string(),
      legs: z.array(
        z.object({
          action: z.enum(["buy", "sell"]),
          right: z.enum(["call", "put", "stock"]),
          strike: z.number().nullable().describe("USD per share; null for the stock leg."),
          quantity: num("Contracts (options) or shares (stock leg)."),
          price: num("Leg price per share, USD: the mid of the current quote (stock: spot)."),
          iv: nnum("Implied volatility of the leg's mid, decimal; null for stock."),
          delta: num("Black–Scholes–Merton delta per share of one contract's underlying (stock: 1)."),
        }),
      ),
      netPremium: num("Paid (debit, positive) or received (credit) for the position, USD, × 100 per contract."),
      netType: z.enum(["debit", "credit"]),
      maxProfit: nnum("Largest profit at expiry, USD; null when unlimited."),
      maxLoss: nnum("Largest loss at expiry, USD (positive number); null when unlimited."),
      breakevens: z.array(z.number()).describe("Underlying prices at expiry where the position's P&L is zero."),
      greeks: z.object({
        delta: num("Position delta, shares-equivalent."),
        gamma: num("Position gamma per $1 move."),
        theta: num("Position theta, USD per calendar day."),
        vega: num("Position vega, USD per vol point."),
      }),
      probabilityOfProfit: nnum(
        "Risk-neutral probability that the position ends with a profit at expiry, 0–1 (lognormal, ATM IV).",
      ),
      expectedMove: z
        .object({ move: z.number(), movePct: z.number(), days: z.number() })
        .nullable()
        .describe("spot × ATM IV × √(days/365) to expiry: USD, fraction of spot, calendar days."),
    }),
    riskFlags: z.array(
      z.object({
        code: z.enum([
          "earnings_before_expiry",
          "wide_spread",
          "thin_open_interest",
          "early_assignment_risk",
          "short_dated",
          "undefined_risk",
        ]),
        severity: z.enum(["info", "warning", "high"]),
        message: z.string(),
      }),
    ),
    disclaimer: z.string(),
  }),
  webhook,
  webhookCreated,
  webhookList,
  health: z.object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    uptime: num("Seconds since the process started."),
  }),
};

export type PayloadName = keyof typeof schemas;
/** A route's `data` as the API answers it. */
export type Payload<K extends PayloadName> = z.output<(typeof schemas)[K]>;
/** What a payload builder must hand its schema (equal to Payload today: the schemas transform nothing). */
export type PayloadInput<K extends PayloadName> = z.input<(typeof schemas)[K]>;
