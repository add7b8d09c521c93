import { test } from "node:test";
import assert from "node:assert/strict";
import { allRoutes } from "../../lib/api/routes";
import { ApiError } from "../../lib/api/errors";
import { parseJsonBody, parseParams, parseQuery } from "../../lib/api/parse-input";

const route = (id: string) => allRoutes.find((r) => r.id === id)!;
const flow = route("GET /api/v1/options-flow");
const outputs = route("POST /api/v1/outputs");
const alerts = route("POST /api/v1/alerts");

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError && err.code === "invalid_request", `expected invalid_request, got ${err}`);
    return err.message;
  }
  return assert.fail("expected a 400");
}
const query = (q: string) => messageOf(() => parseQuery(flow, new URLSearchParams(q)));
const body = (r: typeof outputs, b: unknown) =>
  messageOf(() => parseJsonBody(r, new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" } }), JSON.stringify(b)));
const VALID = { symbol: "AAPL", strategy: "long_call", expiry: "2026-12-18", strikes: [190], quantity: 1 };

test("400 messages name the field, say what is expected and give an example, in the API's words", () => {
  assert.equal(query("limit=0"), "query field 'limit': must be at least 1, e.g. limit=50.");
  assert.equal(query("limit=501"), "query field 'limit': must be at most 500, e.g. limit=50.");
  assert.equal(query("type=bogus"), "query field 'type': expected one of sweep, block, unusual, e.g. type=sweep.");
  assert.equal(query("since=yesterday"), "query field 'since': must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T14:30:00Z.");
  assert.equal(query("foo=1"), "Unknown query parameter: foo. This route takes the query fields symbol, min_premium, type, since, limit.");
  assert.equal(body(outputs, { ...VALID, symbol: undefined }), "body field 'symbol': is required: expected a string, e.g. \"symbol\": \"AAPL\".");
  assert.equal(body(outputs, { ...VALID, quantity: 0 }), "body field 'quantity': expected at least 1, e.g. \"quantity\": 1.");
  assert.equal(body(outputs, { ...VALID, strikes: "190" }), "body field 'strikes': expected an array, got a string, e.g. \"strikes\": [190] (listed strikes: GET /api/v1/symbols/AAPL/expiries).");
  assert.equal(body(outputs, { ...VALID, strategy: "short_gamma" }).split(",")[0], "body field 'strategy': expected one of long_call");
  assert.match(body(alerts, { url: "https://example.com/h", events: [], symbols: ["AAPL"] }), /^body field 'events': expected at least 1 item, e\.g\. "events": \["no_trade\.decision_changed"\]\.$/);
  assert.match(messageOf(() => parseParams(route("GET /api/v1/ticker/{symbol}/summary"), { symbol: "TOOLONGX" })), /^path field 'symbol': must be a ticker symbol: .*\(e\.g\. BRK\.B\)\.$/);
  for (const m of [query("limit=abc"), query("min_premium=-1"), body(outputs, { ...VALID, expiry: 5 })]) {
    assert.doesNotMatch(m, /Invalid input|Too small|Too big|received undefined|expected string/, m);
    assert.match(m, /e\.g\./, m);
  }
});

test("enumerated query values are case-insensitive, like symbols", () => {
  assert.equal((parseQuery(flow, new URLSearchParams("type=Sweep")) as { type: string }).type, "sweep");
  assert.equal((parseQuery(flow, new URLSearchParams("type=BLOCK&symbol=aapl")) as { type: string; symbol: string }).type, "block");
});
