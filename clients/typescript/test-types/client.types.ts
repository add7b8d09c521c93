/** Type tests, checked by `tsc -p clients/typescript` (tests/unit/clients-typescript-types.test.ts): each @ts-expect-error must be an error. */
import { expectTypeOf } from "expect-type";
import { createClient, type Result, type WebhookEvent, verifyWebhook } from "../src/index.js";

const api = createClient({ apiKey: "svc_test_x", baseUrl: "https://api.example.com" });

export async function parameters() {
  await api.getTickerSummary({ symbol: "AAPL" });
  await api.listOptionsFlow({ symbol: "AAPL", min_premium: 50000 });
  await api.listOptionsFlow({ type: "sweep", limit: 10 });
  await api.listOptionsFlow();
  await api.getYieldCurve();
  await api.createOutput({ symbol: "AAPL", strategy: "long_call", expiry: "2026-12-18", strikes: [200] });
  await api.replayAlert({ webhookId: "wh_0", eventId: "msg_0" });
  await api.replayAlert({ webhookId: "wh_0", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" });
  await api.updateAlert({ webhookId: "wh_0", status: "paused" }, { idempotencyKey: "my-key" });
  await api.getHealth(undefined, { signal: AbortSignal.timeout(1000), timeoutMs: 500 });

  // @ts-expect-error a path parameter is required
  await api.getTickerSummary({});
  // @ts-expect-error the method needs its parameters
  await api.getSignalScore();
  // @ts-expect-error symbol is a string
  await api.getTickerSummary({ symbol: 42 });
  // @ts-expect-error misspelt parameter
  await api.listOptionsFlow({ symbol: "AAPL", minPremium: 50000 });
  // @ts-expect-error type is one of sweep, block, unusual
  await api.listOptionsFlow({ type: "whale" });
  // @ts-expect-error strikes are numbers
  await api.createOutput({ symbol: "AAPL", strategy: "long_call", expiry: "2026-12-18", strikes: ["200"] });
  // @ts-expect-error unknown strategy
  await api.createOutput({ symbol: "AAPL", strategy: "moon", expiry: "2026-12-18", strikes: [200] });
  // @ts-expect-error status is active or paused
  await api.updateAlert({ webhookId: "wh_0", status: "disabled" });
  // @ts-expect-error no such operation
  await api.getTickerSumary({ symbol: "AAPL" });
}

export async function results() {
  const r = await api.getTickerSummary({ symbol: "AAPL" });
  expectTypeOf(r).toMatchTypeOf<Result<unknown>>();
  expectTypeOf(r.disclaimer).toEqualTypeOf<string>();
  expectTypeOf(r.isMock).toEqualTypeOf<boolean>();
  expectTypeOf(r.data.service_score).toEqualTypeOf<number>();
  expectTypeOf(r.data.sentiment).toEqualTypeOf<"bullish" | "bearish" | "neutral">();
  // @ts-expect-error misspelt field of the data
  r.data.servce_score;
  const h = await api.getHealth();
  expectTypeOf(h.data.status).toEqualTypeOf<"ok" | "degraded">();
  const s = await api.getSymbolSummary({ ticker: "AAPL" });
  // @ts-expect-error family B data has no meta
  s.data.meta;
  const created = await api.createAlert({
    url: "https://example.com/h",
    events: ["no_trade.decision_changed"],
    symbols: ["AAPL"],
  });
  expectTypeOf(created.data.signingSecret).toEqualTypeOf<string>();
}

export async function webhooks(body: string, headers: Headers) {
  const event = await verifyWebhook(body, headers, ["whsec_a", "whsec_b"]);
  expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
  expectTypeOf(event.type).toMatchTypeOf<string>();
  // @ts-expect-error the secret is a string or a list of strings
  await verifyWebhook(body, headers, 42);
}
