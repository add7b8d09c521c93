/**
 * One valid call per operation (API names, as the client methods take them), for the samples the API reference shows
 * beside each operation and for the snippet tests. Typed by the generated operation table: a new operation without an
 * example here does not compile.
 */
import type { OperationId } from "../typescript/src/generated/operations";
import type { SampleParams } from "./index";

const WEBHOOK_ID = "wh_0123456789abcdef01234567";

export const OPERATION_EXAMPLES: Record<OperationId, SampleParams> = {
  getTickerSummary: { symbol: "AAPL" },
  getSignalScore: { symbol: "MSFT" },
  listOptionsFlow: { symbol: "AAPL", min_premium: 50000 },
  getSymbolSummary: { ticker: "AAPL" },
  getNoTrade: { ticker: "TSLA" },
  getYieldCurve: {},
  getMarketSentiment: {},
  getWatchlistRanking: { symbols: "AAPL,MSFT" },
  createOutput: { symbol: "AAPL", strategy: "long_call", expiry: "2026-12-18", strikes: [200] },
  listSymbols: {},
  listExpiries: { symbol: "AAPL" },
  createAlert: { url: "https://example.com/h", events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
  listAlerts: {},
  getAlert: { webhookId: WEBHOOK_ID },
  updateAlert: { webhookId: WEBHOOK_ID, status: "paused" },
  deleteAlert: { webhookId: WEBHOOK_ID },
  testAlert: { webhookId: WEBHOOK_ID },
  listAlertDeliveries: { webhookId: WEBHOOK_ID, limit: 20 },
  replayAlert: { webhookId: WEBHOOK_ID, from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z" },
  rotateAlertSecret: { webhookId: WEBHOOK_ID },
  getHistory: { symbol: "AAPL", from: "2026-10-01", to: "2026-11-20", fields: "iv_rank,price" },
  getHistoryDay: { symbol: "AAPL", date: "2026-11-20" },
  openStream: { events: "flow.block,flow.sweep", symbols: "AAPL", min_premium: 100000 },
  getHealth: {},
};
