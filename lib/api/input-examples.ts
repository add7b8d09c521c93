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
  date: "2026-11-20",
};

/**
 * Names whose example above is a body field's only: replay's `from`/`to` are instants, while history's query `from`/`to`
 * are calendar days inside the caller's plan window (no fixed example stays valid), so a query field of these names has
 * none.
 */
const BODY_ONLY = new Set(["from", "to"]);

/** Query spellings of fields whose body example is JSON (the live stream's `events` is a comma list). */
const QUERY_EXAMPLES: Record<string, string> = { events: "iv_rank.crossed_above,flow.sweep" };

/** The example for a field named `name` in a path, query or body. */
export function exampleNamed(name: string, where: "path" | "query" | "body"): string | undefined {
  if (where !== "body" && BODY_ONLY.has(name)) return undefined;
  return (where === "query" ? QUERY_EXAMPLES[name] : undefined) ?? INPUT_EXAMPLES[name];
}

/** The example for a dotted field path such as legs[0].strike: the last named segment decides. */
export function exampleFor(field: string, where: "path" | "query" | "body" = "body"): string | undefined {
  const last = field
    .replace(/\[\d+\]/g, "")
    .split(".")
    .filter(Boolean)
    .pop();
  return last ? exampleNamed(last, where) : undefined;
}
