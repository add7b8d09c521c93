import { test } from "node:test";
import assert from "node:assert/strict";
import { LOGGED_PATH_MAX, loggedPath } from "../../lib/api/logged-path";

const at = (path: string) => loggedPath(new URL(path, "http://127.0.0.1:3000"));

test("the requested path and query are kept as received, percent-encoding included", () => {
  assert.equal(at("/api/v1/ticker/zzzzz/summary"), "/api/v1/ticker/zzzzz/summary");
  assert.equal(at("/api/v1/options-flow?symbol=AAPL&side=call"), "/api/v1/options-flow?symbol=AAPL&side=call");
  assert.equal(at("/api/v1/ticker/BRK%2EB/summary?x=a%20b"), "/api/v1/ticker/BRK%2EB/summary?x=a%20b");
  assert.equal(
    at("/api/v1/data/watchlist-ranking?symbols=AAPL,MSFT"),
    "/api/v1/data/watchlist-ranking?symbols=AAPL,MSFT",
  );
});

test("secrets in the query are replaced, whatever the parameter's case or encoding", () => {
  assert.equal(
    at("/api/v1/options-flow?symbol=AAPL&api_key=abc123&Token=t0k&access-token=x"),
    "/api/v1/options-flow?symbol=AAPL&api_key=REDACTED&Token=REDACTED&access-token=REDACTED",
  );
  assert.equal(at("/api/v1/health?%61pi%5Fkey=abc"), "/api/v1/health?%61pi%5Fkey=REDACTED");
  assert.equal(at("/api/v1/health?key"), "/api/v1/health?key=REDACTED");
  assert.equal(at("/api/v1/health?monkey=1&keys=2"), "/api/v1/health?monkey=1&keys=2");
});

test("anything shaped like a service key is replaced, in the path or under any parameter name", () => {
  const key = "svc_test_AbCdEfGhIjKlMnOpQrStUvWx123456";
  assert.equal(at(`/api/v1/ticker/${key}/summary`), "/api/v1/ticker/svc_test_REDACTED/summary");
  assert.equal(at(`/api/v1/options-flow?q=${key}`), "/api/v1/options-flow?q=svc_test_REDACTED");
  assert.equal(at("/api/v1/x?c=svc_sk_live_abc"), "/api/v1/x?c=svc_sk_live_REDACTED");
  assert.ok(!at(`/api/v1/x?a=1&b=svc_live_${"z".repeat(30)}`).includes("zzz"));
});

test("a long path is cut to the bound, with an ellipsis", () => {
  const long = at(`/api/v1/options-flow?symbol=${"A".repeat(2000)}`);
  assert.equal(long.length, LOGGED_PATH_MAX);
  assert.ok(long.endsWith("…"));
  assert.equal(at(`/${"b".repeat(LOGGED_PATH_MAX - 1)}`).length, LOGGED_PATH_MAX);
});
