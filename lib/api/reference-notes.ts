import { definitions as signalScoreDefs } from "../analytics/signal-score";
import { definitions as chainDefs } from "../analytics/chain-metrics";
import { definitions as priceDefs } from "../analytics/price-metrics";
import { symbolMetricsDefinitions } from "../analytics/vol-metrics";
import { definitions as ivDefs } from "../analytics/iv";
import { definitions as americanDefs, ivDefinitions as americanIvDefs } from "../analytics/american";
import { definitions as surfaceDefs } from "../analytics/vol-surface";
import { definitions as ivHistoryDefs } from "../analytics/iv-history";
import { definitions as flowDefs } from "../analytics/flow";
import { definitions as flowFilterDefs } from "../analytics/flow-filters";
import { definitions as conditionDefs } from "../analytics/trade-conditions";
import { definitions as noTradeDefs } from "../analytics/no-trade";
import { definitions as curveDefs } from "../analytics/yield-curve";
import { definitions as sentimentDefs } from "../analytics/market-sentiment";
import { definitions as watchlistDefs } from "../analytics/watchlist";
import { definitions as strategySchemaDefs } from "../analytics/strategy-schema";
import { definitions as strategyDefs } from "../analytics/strategy";
import { definitions as payoffDefs } from "../analytics/strategy-payoff";
import { IMPORT_FORMATS } from "../market/import/formats";
import { IDEMPOTENCY_NOTES } from "./idempotency-reference";
import { STREAM_LEASE_TTL_MS } from "../contract/stream";

/** The prose part of the API reference: rules that apply to every route. */
export const REFERENCE_NOTES = `
The service's own derived options-market analytics over HTTPS JSON. Two route families share one base URL:
family A (\`/ticker\`, \`/signal-score\`, \`/options-flow\`) answers with \`data\`, \`meta\`, \`disclaimer\`, \`not_financial_advice\`
and errors exactly \`{"error":{"code","message"}}\`; family B (\`/ai\`, \`/data\`, \`/alerts\`, \`/outputs\`, \`/health\`) answers with
\`data\`, \`disclaimer\`, \`isMockData\`, \`timestamp\`, \`dataLabel\` on every response, errors included (plus \`error\`).

## Keys
Send one key as \`Authorization: Bearer <key>\`, \`x-api-key: <key>\` or \`X-Service-Key: <key>\`; two different keys are a 400.
\`svc_test_…\` keys are free and read demo data on the Sandbox plan. \`svc_live_…\` keys need Pro or Enterprise;
\`svc_sk_live_…\` keys (issued on approval of an API access request) need any paid plan. A key is 30 characters after its
prefix: 24 random base62 characters (≈142 bits) and a 6-character CRC-32 checksum. Only a SHA-256 digest is stored.
Checks, in order: no key → 401 \`missing_api_key\`; malformed, unknown, revoked or expired → 401 \`invalid_api_key\`; deactivated key
or account → 403 \`inactive_key\`; live key without the subscription → 403 \`subscription_required\`. A revoked or
deactivated key stops working on every server within 5 seconds. A key rolled on the portal keeps working for the
overlap chosen (none, 1 hour, 24 hours or 7 days), then expires: refused from that instant on every server.

## Limits
Limits belong to the calling key's plan (test keys: Sandbox; live keys: the account's plan). The per-minute burst is counted
per key; the quota per account and environment, shared by all of the account's test keys (or all its live keys), so a
new key adds no quota.
Family A: per minute and per calendar month (UTC); family B: per minute and per UTC day, plus a maximum request body.
Order: credentials → body size (B, 413 \`payload_too_large\`) → licensing (403 \`endpoint_pending_licensing\`) → per-minute
burst (429 \`rate_limit_exceeded\` with \`Retry-After\` seconds) → quota (403 \`plan_limit_exceeded\`). Windows are fixed UTC
minutes, days and months. Every request past the licensing gate uses one unit of the burst window; only 2xx responses
use quota. Limits are exact across any number of servers. See \`x-plans\` for the numbers.
Live streams (\`openStream\`): each key may hold \`x-plans\` \`streamsPerKey\` streams open at once, counted across every
server sharing the database (429 \`rate_limit_exceeded\`, \`Retry-After: 5\`, past it). Closing a stream frees its slot at
once; a stream of a server that stopped without closing it stops counting within ${STREAM_LEASE_TTL_MS / 1000} seconds.

Every authenticated response carries \`RateLimit-Policy\` (e.g. \`"minute";q=10;w=60, "month";q=100;w=2592000\`) and
\`RateLimit\` (e.g. \`"minute";r=7;t=42, "month";r=93;t=1209600\`: r = remaining, t = seconds to reset), and the classic
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` (burst window) and \`X-RateLimit-Reset\` (Unix time, seconds, when the
burst window resets). Each \`RateLimit-Policy\` and \`RateLimit\` item ends with the draft's partition key \`pk=:…:\`
(opaque): the minute item's is the calling key's, the month or day item's is shared by the account's keys of that
environment. Every response carries \`X-Request-Id\` (yours echoed if it is 1–128 of \`A–Z a–z 0–9 . _ : -\`).
${IDEMPOTENCY_NOTES}
## Licensing
Each endpoint is \`enabled\` or \`pending_licensing\` per key environment. By default live \`GET /api/v1/options-flow\`
is pending; everything else is enabled. Pending calls are not counted against quota.

## Freshness labels
Test keys: \`demo\` (\`is_mock\`/\`isMockData\` true). Live keys: from the age of the newest data used and the plan's entitlement
(Starter: delayed-15m; Pro and Enterprise: live). Entitlement live and age ≤ 15 min → \`live\`; age ≤ 30 min → \`delayed-15m\`;
older → \`end-of-day\`. A delayed-15m entitlement is served data at least 15 minutes old. Family B bodies that carry
no market data (errors, health, webhook registrations) say \`demo\` for test keys and \`none\` otherwise. No live data for a symbol → 503 \`data_source_unavailable\`. When the service's market-data provider keeps the live store fresh, a live answer
that would read data past its kind's staleness bound (option chain, daily bars, option prints or the Treasury curve) is
refused the same way, with a message naming the kind and how old its newest data is.

## Data
Responses carry derived analytics only, never a raw quote, trade print or chain row as received. Demo data is the
service's own synthetic market and must never be treated as a live quote. Every body carries the disclaimer
(family A error bodies excepted); \`not_financial_advice\` is always true.

## Numbers
One rounding rule for every published number: half away from zero at the field's precision (2.5 → 3, −2.5 → −3),
after removing binary noise (4.2 − 4.6 is −0.4, not −0.39999…); −0 is published as 0. No number is ever NaN or
Infinity: a value that cannot be computed from the data is \`null\` and the surrounding text says it is unavailable.
Precision by field: decimals and ratios (\`atm_iv_30d\`, \`hv_30d\`, \`skew_25d\`, \`term_slope\`, \`avg_spread_pct\`,
\`momentum_20d\`, \`trend_50d\`, put/call ratios, \`expected_move.move_pct\` and \`.event_move_pct\`, \`forwards[].forward\`, signal components, flow \`avg_price\`
and \`volume_oi_ratio\`, research-output leg prices, greeks, IVs and probability of profit) 4 decimals; \`iv_rank\`,
\`iv_percentile\`, \`liquidity_score\`, watchlist \`score\` and market-sentiment \`score\` 1 decimal; USD amounts
(\`premium\`, flow premium sums, \`expected_move.move\`, research-output net premium, max profit and loss) 2 decimals (cents);
yield-curve spreads, slope and hump 0.1 bp; \`confidence\` and sentiment \`coverage\` 2 decimals; \`service_score\`,
counts, days and \`iv_lookback_days\` integers; \`forwards[].implied_yield\` 6 decimals; published yields, closes and strikes as received.

## Exchange clock
Expiries, "today" and day counts follow the exchange: America/New_York (daylight saving included). Options stop
trading at 16:00 New York time (20:00 UTC in summer, 21:00 UTC in winter) on the last NYSE trading day on or before the
listed expiry date; NYSE full-day holidays (New Year's Day, Martin Luther King Jr. Day, Washington's Birthday, Good
Friday, Memorial Day, Juneteenth, Independence Day, Labor Day, Thanksgiving, Christmas; Saturday holidays observed on
Friday, Sunday ones on Monday, a Saturday New Year's Day not observed) are computed by rule, and so are the 13:00 early
closes (the day before Independence Day when a Monday–Thursday, the day after Thanksgiving, Christmas Eve when a
Monday–Thursday), on which options stop trading at 13:00 New York time. Time to expiry is ACT/365
in milliseconds to that close. The 52-week IV lookback is dated by UTC snapshot date.
`.trim();

/** Definitions of every number the API returns, from the analytics modules that compute them. */
export function metricDefinitions(): Record<string, Record<string, string>> {
  return {
    "ticker summary, signal score (service_score, sentiment, risk_level, confidence, bias, components)":
      signalScoreDefs,
    "symbol metrics (IV, IV rank and percentile, skew, term slope, ratios, liquidity, momentum, trend)": {
      ...symbolMetricsDefinitions,
      ...chainDefs,
      ...priceDefs,
    },
    "implied volatility and the volatility surface": {
      ...ivDefs,
      ...americanDefs,
      ...americanIvDefs,
      ...surfaceDefs,
      ...ivHistoryDefs,
    },
    "options flow (events, premium, side, sentiment, filters)": { ...flowDefs, ...flowFilterDefs, ...conditionDefs },
    "no-trade analysis (8 risk categories, checks, decision)": noTradeDefs,
    "yield curve (tenors, interpolation, inversion, spreads in basis points)": curveDefs,
    "market sentiment (score, label, components, weights)": sentimentDefs,
    "watchlist ranking": watchlistDefs,
    "research outputs (strategy legs, payoff, greeks, probability of profit, risk flags)": {
      ...strategySchemaDefs,
      ...strategyDefs,
      ...payoffDefs,
    },
    "import CSV layouts (cli import <kind>)": Object.fromEntries(
      Object.entries(IMPORT_FORMATS).map(([kind, f]) => [kind, `${f.title} ${f.notes.map((n) => `• ${n}`).join(" ")}`]),
    ),
  };
}
