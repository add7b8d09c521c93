/**
 * `npm start`'s readiness probe (scripts/health-probe.ts) answers false, never throws: a health answer whose headers
 * come in time but whose body outlasts the timeout once rejected outside the probe's catch and, unawaited in
 * scripts/start.ts, stopped the process that hosts the embedded database.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { healthOk } from "../../scripts/health-probe";

async function serve(handler: http.RequestListener) {
  const s = http.createServer(handler);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/api/v1/health` };
}

test("ok only for a 200 whose body says status ok", async () => {
  let body = JSON.stringify({ data: { status: "ok" } });
  let status = 200;
  const { s, url } = await serve((_req, res) => {
    res.statusCode = status;
    res.end(body);
  });
  try {
    assert.equal(await healthOk(url), true);
    body = JSON.stringify({ data: { status: "starting" } });
    assert.equal(await healthOk(url), false);
    body = "not json";
    assert.equal(await healthOk(url), false);
    status = 503;
    body = JSON.stringify({ data: { status: "ok" } });
    assert.equal(await healthOk(url), false);
  } finally {
    s.close();
  }
});

test("a body that outlasts the timeout after the headers: false, not a rejection", async () => {
  const { s, url } = await serve((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"data":');
    setTimeout(() => res.end('{"status":"ok"}}'), 1_000);
  });
  try {
    assert.equal(await healthOk(url, 200), false);
  } finally {
    s.closeAllConnections();
    s.close();
  }
});

test("nothing listening: false", async () => {
  const { s, url } = await serve(() => {});
  s.close();
  assert.equal(await healthOk(url, 500), false);
});
