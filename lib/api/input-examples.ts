/** One valid example per input field, quoted in every 400 that names the field (a caller sees what to send). */
export const INPUT_EXAMPLES: Record<string, string> = {
  symbol: "AAPL",
  ticker: "AAPL",
  symbols: "AAPL,MSFT,SPY",
  min_premium: "250000",
  type: "sweep",
  since: "2026-11-20T14:30:00Z",
  limit: "50",
  webhookId: "wh_0123456789abcdef01234567",
  url: "https://example.com/hooks/options",
  events: '["iv_rank.crossed_above"]',
  ivRankAbove: "80",
  ivRankBelow: "20",
  ivChangeAbove: "5",
  description: '"IV alerts for the trading desk"',
  status: '"paused"',
  strategy: '"bull_call_spread"',
  expiry: '"2026-12-18"',
  strikes: "[100, 110]",
  quantity: "1",
  eventId: '"evt_…" (an id from GET /api/v1/alerts/{webhookId}/deliveries)',
  from: '"2026-11-20T00:00:00Z"',
  to: '"2026-11-21T00:00:00Z"',
  days: "7",
};

/** The example for a dotted field path such as legs[0].strike: the last named segment decides. */
export function exampleFor(field: string): string | undefined {
  const last = field
    .replace(/\[\d+\]/g, "")
    .split(".")
    .filter(Boolean)
    .pop();
  return last ? INPUT_EXAMPLES[last] : undefined;
}
