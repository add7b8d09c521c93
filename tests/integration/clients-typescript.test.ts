/**
 * The TypeScript client against the real API server: every operation of both families with the envelope's labels
 * carried into each result, every error code a client can provoke, a real 429 retried after the server's Retry-After,
 * retry rules for POST (only with an Idempotency-Key), timeouts and aborts, and webhook verification of real deliveries.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createClient, verifyWebhook, WebhookVerificationError } from "../../clients/typescript/src/index";
import { expectApiError } from "../helpers/client-errors";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { minuteHeadroom, startClientsServer, type ClientsServer } from "../helpers/clients-server";
import { startReceiver, waitFor, type Receiver } from "../helpers/webhook-receiver";

let s: ClientsServer;
let receiver: Receiver;

before(async () => {
  s = await startClientsServer("clientsts");
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
  await s?.stop();
});

const client = (apiKey: string, extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ apiKey, baseUrl: s.baseUrl, ...extra });

/** A fetch that records each attempt's method, URL and headers before passing it on. */
function recordingFetch(plan: (n: number, req: Request) => Promise<Response> | null = () => null) {
  const seen: { method: string; url: string; headers: Headers }[] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push({ method: req.method, url: req.url, headers: req.headers });
    return (await plan(seen.length, req)) ?? fetch(input, init);
  };
  return { fetch: f as typeof fetch, seen };
}

describe("TypeScript client: every operation", () => {
  it("family A with a test key: results carry data, disclaimer, label, mock flag, request id and rate limits", async () => {
    const api = client(s.testKey);
    const summary = await api.getTickerSummary({ symbol: "aapl" });
    assert.equal(summary.data.symbol, "AAPL");
    assert.ok(summary.data.service_score >= 0 && summary.data.service_score <= 100);
    assert.equal(summary.disclaimer, DISCLAIMER);
    assert.equal(summary.dataLabel, "demo");
    assert.equal(summary.isMock, true);
    assert.match(summary.requestId, /.+/);
    assert.ok(summary.rateLimit && summary.rateLimit.limit === 100000 && summary.rateLimit.remaining! < 100000);
    assert.match(summary.rateLimit.header ?? "", /"minute";r=\d+;t=\d+/);
    const score = await api.getSignalScore({ symbol: "SPY" }, { headers: { "x-request-id": "client-test-1" } });
    assert.equal(score.data.symbol, "SPY");
    assert.equal(score.requestId, "client-test-1", "a caller's request id is echoed");
    const flow = await api.listOptionsFlow({ symbol: "AAPL", min_premium: 50000, limit: 5 });
    assert.ok(flow.data.events.length <= 5);
    assert.ok(flow.data.events.every((e) => e.symbol === "AAPL" && e.premium >= 50000));
    assert.equal(flow.dataLabel, "demo");
  });

  it("history: getHistory, getHistoryDay and getHistoryCsv carry the same series", async () => {
    const api = client(s.testKey);
    const h = await api.getHistory({ symbol: "aapl", fields: "price,iv_rank" });
    assert.equal(h.dataLabel, "demo");
    assert.equal(h.disclaimer, DISCLAIMER);
    assert.ok(h.data.count >= 1, "the week of snapshots is within the default 30 days");
    assert.deepEqual(h.data.columns, ["price", "iv_rank"]);
    const last = h.data.rows[h.data.rows.length - 1] as Record<string, unknown>;
    const day = await api.getHistoryDay({ symbol: "AAPL", date: String(last.date) });
    assert.equal((day.data as Record<string, unknown>).price, last.price);
    const csv = await api.getHistoryCsv({ symbol: "AAPL", fields: "price,iv_rank" });
    const lines = csv.trim().split("\n");
    assert.equal(lines[0], `# ${DISCLAIMER}`);
    assert.equal(lines[1], "date,data_label,as_of,price,iv_rank");
    assert.equal(lines.length, 2 + h.data.count);
    assert.equal(lines[lines.length - 1].split(",")[3], String(last.price));
    await expectApiError(api.getHistory({ symbol: "AAPL", fields: "vega" }), 400, "invalid_request");
    await expectApiError(api.getHistoryCsv({ symbol: "AAPL", from: "2026-02-30" }), 400, "invalid_request");
  });

  it("family B with a test key, discovery and a research output built from it", async () => {
    const api = client(s.testKey);
    const results = [
      await api.getSymbolSummary({ ticker: "AAPL" }),
      await api.getNoTrade({ ticker: "AAPL" }),
      await api.getYieldCurve(),
      await api.getMarketSentiment(),
      await api.getWatchlistRanking({ symbols: "AAPL,SPY,QQQ" }),
      await api.listSymbols(),
    ];
    for (const r of results) {
      assert.equal(r.disclaimer, DISCLAIMER);
      assert.equal(r.dataLabel, "demo");
      assert.equal(r.isMock, true);
      assert.equal(r.status, 200);
      assert.ok(r.rateLimit);
    }
    const symbols = results[5].data as { symbols: { symbol: string }[] };
    assert.ok(symbols.symbols.some((x) => x.symbol === "AAPL"));
    const expiries = await api.listExpiries({ symbol: "AAPL" });
    // Not an expiry's last day: in its final hours the quotes cannot pin a vol (docs/analytics-models.md).
    const expiry = expiries.data.expiries.find((e) => e.strikes.length >= 2 && e.days >= 1)!;
    const output = await api.createOutput({
      symbol: "AAPL",
      strategy: "bull_call_spread",
      expiry: expiry.expiry,
      strikes: expiry.strikes.slice(0, 2),
    });
    assert.equal(output.status, 200);
    assert.equal(output.data.output.strategy, "bull_call_spread");
    assert.equal(output.disclaimer, DISCLAIMER);
    assert.equal(output.isMock, true);
  });

  it("health needs no key and has no rate limit", async () => {
    const health = await createClient({ apiKey: "svc_test_unused", baseUrl: s.baseUrl }).getHealth();
    assert.equal(health.data.status, "ok");
    assert.equal(health.dataLabel, "none");
    assert.equal(health.rateLimit, null);
    assert.equal(health.disclaimer, DISCLAIMER);
  });

  it("webhooks with a Pro live key: create, list, get, pause/resume, test, deliveries, replay, rotate, delete", async () => {
    const api = client(s.proKey);
    const created = await api.createAlert({
      url: receiver.url,
      events: ["no_trade.decision_changed"],
      symbols: ["AAPL"],
      description: "client test",
    });
    assert.equal(created.status, 201);
    assert.equal(created.dataLabel, "none");
    assert.equal(created.isMock, false);
    const id = created.data.webhookId;
    const secret = created.data.signingSecret;
    assert.match(secret, /^whsec_/);
    assert.ok((await api.listAlerts()).data.webhooks.some((w) => w.webhookId === id));
    assert.equal((await api.getAlert({ webhookId: id })).data.url, receiver.url);
    assert.equal((await api.updateAlert({ webhookId: id, status: "paused" })).data.status, "paused");
    assert.equal((await api.updateAlert({ webhookId: id, status: "active" })).data.status, "active");

    const test = await api.testAlert({ webhookId: id });
    assert.equal(test.status, 202);
    await waitFor("the test delivery", () => receiver.received.some((r) => r.id === test.data.eventId));
    const delivery = receiver.received.find((r) => r.id === test.data.eventId)!;
    const headers = {
      "webhook-id": delivery.id,
      "webhook-timestamp": delivery.timestamp,
      "webhook-signature": delivery.signature,
    };
    const event = await verifyWebhook(delivery.body, headers, secret);
    assert.equal(event.type, "webhook.test");
    assert.equal((event.data as { disclaimer?: string }).disclaimer, DISCLAIMER);
    const rejects = (p: Promise<unknown>, re: RegExp) =>
      assert.rejects(p, (e) => e instanceof WebhookVerificationError && re.test(e.message));
    await rejects(verifyWebhook(delivery.body.replace("webhook.test", "webhook.tesT"), headers, secret), /signature/);
    await rejects(
      verifyWebhook(delivery.body, headers, `whsec_${Buffer.from("x".repeat(24)).toString("base64")}`),
      /signature/,
    );
    await rejects(
      verifyWebhook(delivery.body, headers, secret, { now: new Date(Number(delivery.timestamp) * 1000 + 600_000) }),
      /too old/,
    );

    await waitFor(
      "the attempt to be recorded",
      async () =>
        (await api.listAlertDeliveries({ webhookId: id, limit: 5 })).data.deliveries[0]?.status === "succeeded",
    );
    const deliveries = await api.listAlertDeliveries({ webhookId: id });
    assert.equal(deliveries.data.deliveries[0].eventId, test.data.eventId);
    const replayed = await api.replayAlert({ webhookId: id, eventId: test.data.eventId });
    assert.equal(replayed.data.queued, 1);
    const range = await api.replayAlert({
      webhookId: id,
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    assert.ok(range.data.queued >= 1);

    const rotated = await api.rotateAlertSecret({ webhookId: id });
    assert.notEqual(rotated.data.signingSecret, secret);
    const second = await api.testAlert({ webhookId: id });
    await waitFor("the delivery after rotation", () => receiver.received.some((r) => r.id === second.data.eventId));
    const d2 = receiver.received.find((r) => r.id === second.data.eventId)!;
    const h2 = { "webhook-id": d2.id, "webhook-timestamp": d2.timestamp, "webhook-signature": d2.signature };
    assert.equal(d2.signature.split(" ").length, 2, "two signatures during the rotation");
    assert.ok(await verifyWebhook(d2.body, h2, [rotated.data.signingSecret, secret]));
    assert.ok(await verifyWebhook(d2.body, h2, secret), "the previous secret still verifies");
    assert.ok(await verifyWebhook(d2.body, h2, rotated.data.signingSecret), "the new secret verifies");

    const deleted = await api.deleteAlert({ webhookId: id });
    assert.equal(deleted.data.status, "deleted");
    await expectApiError(api.getAlert({ webhookId: id }), 404, "not_found");
  });
});

describe("TypeScript client: errors", () => {
  it("401, 403, 404, 400, 405, 413 and 503 become ApiError with status, code, message and request id", async () => {
    const test = client(s.testKey);
    const pro = client(s.proKey);
    // the client always sends its key; an empty Authorization header stands for a caller who sent none
    const noKey = { headers: { authorization: "" } };
    await expectApiError(test.getTickerSummary({ symbol: "AAPL" }, noKey), 401, "missing_api_key");
    await expectApiError(test.getYieldCurve(undefined, noKey), 401, "missing_api_key");
    await expectApiError(client("svc_test_nope").getTickerSummary({ symbol: "AAPL" }), 401, "invalid_api_key");
    await expectApiError(client("svc_test_nope").getYieldCurve(), 401, "invalid_api_key");
    await expectApiError(client(s.inactiveKey).getTickerSummary({ symbol: "AAPL" }), 403, "inactive_key");
    await expectApiError(test.listAlerts(), 403, "subscription_required");
    await expectApiError(pro.listOptionsFlow({ symbol: "AAPL" }), 403, "endpoint_pending_licensing");
    await expectApiError(pro.getTickerSummary({ symbol: "AAPL" }), 403, "plan_limit_exceeded");
    await expectApiError(test.getTickerSummary({ symbol: "ZZZZ" }), 404, "symbol_not_found");
    await expectApiError(test.getSymbolSummary({ ticker: "ZZZZ" }), 404, "symbol_not_found");
    await expectApiError(pro.getAlert({ webhookId: `wh_${"0".repeat(24)}` }), 404, "not_found");
    const bad = await expectApiError(test.getTickerSummary({ symbol: "TOOLONGSYMBOL" }), 400, "invalid_request");
    assert.match(bad.message, /symbol/);
    await expectApiError(test.listOptionsFlow({ min_premium: -1 }), 400, "invalid_request");
    await expectApiError(
      test.createOutput({ symbol: "AAPL", strategy: "long_call", expiry: "x".repeat(20_000), strikes: [1] }),
      413,
      "payload_too_large",
    );
    // a 405 needs a method the table never uses: a fetch that swaps the method reaches the server's real answer
    const put = recordingFetch((_, req) => fetch(req.url, { method: "PUT", headers: req.headers }));
    await expectApiError(client(s.testKey, { fetch: put.fetch }).getYieldCurve(), 405, "method_not_allowed");
    // no live data for a live key: a 503 (retried unless told not to, as here)
    await expectApiError(pro.getYieldCurve(undefined, { maxRetries: 0 }), 503, "data_source_unavailable");
  });

  it("a real 429 is retried after the server's Retry-After and then succeeds", async () => {
    await minuteHeadroom(5);
    const first = await client(s.limitedKey).listAlerts();
    assert.equal(first.rateLimit?.limit, 1);
    const refused = await expectApiError(
      client(s.limitedKey, { maxRetries: 0 }).listAlerts(),
      429,
      "rate_limit_exceeded",
    );
    assert.ok(refused.retryAfter !== null && refused.retryAfter >= 1 && refused.retryAfter <= 60);
    const rec = recordingFetch();
    const started = Date.now();
    const refusedAt = new Date();
    const retried = await client(s.limitedKey, { fetch: rec.fetch, maxRetries: 2 }).listAlerts();
    const waited = Date.now() - started;
    assert.equal(retried.status, 200);
    assert.equal(rec.seen.length, 2, "one 429, one success");
    assert.ok(waited >= (refused.retryAfter! - 1) * 1000, `waited ${waited} ms for Retry-After ${refused.retryAfter}`);
    assert.notEqual(
      new Date().getUTCMinutes(),
      refusedAt.getUTCMinutes(),
      "the retry landed in the next minute window",
    );
  });

  it("connection errors are retried with backoff; POST only with an Idempotency-Key, which stays the same", async () => {
    const dead = recordingFetch(() => Promise.reject(new TypeError("fetch failed")));
    const api = client(s.testKey, { fetch: dead.fetch, maxRetries: 2 });
    await expectApiError(api.getYieldCurve(), 0, "connection_error");
    assert.equal(dead.seen.length, 3, "first attempt and two retries");

    // the first attempt of a POST is lost on the way; the retry reaches the real server with the same key
    const expiries = await client(s.testKey).listExpiries({ symbol: "SPY" });
    const e = expiries.data.expiries[0];
    const body = { symbol: "SPY", strategy: "long_call" as const, expiry: e.expiry, strikes: [e.strikes[0]] };
    const flaky = recordingFetch((n) => (n === 1 ? Promise.reject(new TypeError("socket hang up")) : null));
    const out = await client(s.testKey, { fetch: flaky.fetch }).createOutput(body);
    assert.equal(out.status, 200);
    assert.equal(flaky.seen.length, 2);
    const keys = flaky.seen.map((x) => x.headers.get("idempotency-key"));
    assert.match(keys[0] ?? "", /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0], "the retry carries the same Idempotency-Key");

    const given = recordingFetch((n) => (n === 1 ? Promise.reject(new TypeError("reset")) : null));
    await client(s.testKey, { fetch: given.fetch }).createOutput(body, { idempotencyKey: "order-42" });
    assert.deepEqual(
      given.seen.map((x) => x.headers.get("idempotency-key")),
      ["order-42", "order-42"],
    );

    const none = recordingFetch(() => Promise.reject(new TypeError("socket hang up")));
    await expectApiError(
      client(s.testKey, { fetch: none.fetch }).createOutput(body, { idempotencyKey: false }),
      0,
      "connection_error",
    );
    assert.equal(none.seen.length, 1, "a POST without an Idempotency-Key is never retried");
    assert.equal(none.seen[0].headers.get("idempotency-key"), null);

    const get = recordingFetch();
    await client(s.testKey, { fetch: get.fetch }).getYieldCurve();
    assert.equal(get.seen[0].headers.get("idempotency-key"), null, "GET sends no Idempotency-Key");
  });

  it("every call has a timeout and takes an AbortSignal", async () => {
    const slow = recordingFetch(
      (_, req) =>
        new Promise((_resolve, reject) =>
          req.signal.addEventListener("abort", () => reject(req.signal.reason), { once: true }),
        ),
    );
    const api = client(s.testKey, { fetch: slow.fetch, timeoutMs: 50, maxRetries: 1 });
    await expectApiError(api.getMarketSentiment(), 0, "timeout");
    assert.equal(slow.seen.length, 2, "a timed-out GET is retried");
    const controller = new AbortController();
    const pending = client(s.testKey, { fetch: slow.fetch }).getMarketSentiment(undefined, {
      signal: controller.signal,
    });
    controller.abort(new Error("caller gave up"));
    await assert.rejects(pending, /caller gave up/);
    const already = AbortSignal.abort(new Error("before start"));
    await assert.rejects(client(s.testKey).getHealth(undefined, { signal: already }), /before start/);
  });
});

describe("TypeScript client: openStream", () => {
  const flowRow = (symbol: string, i: number) =>
    s.t.sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
      values ('test', 'flow.block', ${symbol}, ${i * 100_000}, ${`ts:${symbol}:${i}`}, ${JSON.stringify({ id: `ts${i}`, symbol, type: "block", premium: i * 100_000 })}::jsonb)`;

  it("iterates the events, reconnects after a dropped connection with Last-Event-ID, none missed or twice", async () => {
    // The first connection breaks after its second event, as a network failure would.
    const rec = recordingFetch((n, req) => (n === 1 ? cutAfterTwo(req) : null));
    async function cutAfterTwo(req: Request) {
      const res = await fetch(req);
      let events = 0;
      const cut = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, c) {
          // Pass frames through up to the end of the second event, then fail the connection.
          let text = new TextDecoder().decode(chunk);
          let out = "";
          for (let end = text.indexOf("\n\n"); end >= 0 && events < 2; end = text.indexOf("\n\n")) {
            const frame = text.slice(0, end + 2);
            text = text.slice(end + 2);
            out += frame;
            if (/^id: /m.test(frame)) events++;
          }
          if (events < 2) out += text;
          c.enqueue(new TextEncoder().encode(out));
          if (events >= 2) c.error(new Error("connection reset by the test"));
        },
      });
      return new Response(res.body?.pipeThrough(cut), { status: res.status, headers: res.headers });
    }
    const api = client(s.testKey, { fetch: rec.fetch });
    const ac = new AbortController();
    const got: { id: string; premium: unknown }[] = [];
    const reading = (async () => {
      for await (const ev of api.openStream({ events: ["flow.block"], symbols: ["tsst"] }, { signal: ac.signal })) {
        got.push({ id: ev.id, premium: ev.data.premium });
        if (got.length === 5) ac.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 1500)); // the stream is open and the server's hub has its cursor
    for (let i = 1; i <= 5; i++) await flowRow("TSST", i);
    await Promise.race([
      reading,
      new Promise((_, no) => setTimeout(() => no(new Error(`stalled: ${JSON.stringify(got)}`)), 15_000)),
    ]);
    assert.deepEqual(
      got.map((g) => g.premium),
      [100_000, 200_000, 300_000, 400_000, 500_000],
    );
    assert.equal(new Set(got.map((g) => g.id)).size, 5);
    assert.equal(rec.seen.length, 2, "one reconnection");
    assert.equal(rec.seen[0].headers.get("last-event-id"), null);
    assert.equal(rec.seen[1].headers.get("last-event-id"), got[1].id);
    assert.match(rec.seen[0].url, /\/api\/v1\/stream\?events=flow\.block&symbols=tsst$/);
  });

  it("a bad filter is an ApiError before any event; an aborted signal ends the loop", async () => {
    const api = client(s.testKey);
    await expectApiError(api.openStream({ events: ["flow.nope"] }).next(), 400, "invalid_request");
    const ac = new AbortController();
    const it = api.openStream({ events: "flow.sweep" }, { signal: ac.signal });
    const next = it.next();
    setTimeout(() => ac.abort(), 300);
    assert.deepEqual(await next, { done: true, value: undefined });
  });
});
