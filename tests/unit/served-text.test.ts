import { test } from "node:test";
import assert from "node:assert/strict";
import { appendHeader, headerRecord } from "../../lib/api/http/header-record";
import { servedAnswerOf, textResponse } from "../../lib/api/served-facts";

test("a textResponse gives its body text and headers back without reading it; any other Response gives nothing", async () => {
  const headers = { "content-type": "application/json", "x-request-id": "req_1" };
  const r = textResponse('{"a":1}', { status: 201, headers });
  assert.deepEqual(servedAnswerOf(r), { text: '{"a":1}', headers });
  assert.equal(r.bodyUsed, false);
  assert.equal(r.status, 201);
  assert.equal(r.headers.get("x-request-id"), "req_1");
  assert.equal(await r.text(), '{"a":1}', "and the body is still there for anyone who reads it");
  assert.equal(servedAnswerOf(new Response('{"a":1}')), undefined);
});

test("headerRecord copies names in lower case from a record, a Headers or pairs; appendHeader joins list values", () => {
  const from = { "Content-Type": "text/plain", Vary: "Origin" };
  const copy = headerRecord(from);
  assert.deepEqual(copy, { "content-type": "text/plain", vary: "Origin" });
  copy.vary = "changed";
  assert.equal(from.Vary, "Origin", "a copy, not the record given");
  const h = new Headers([
    ["Vary", "Origin"],
    ["vary", "Accept-Encoding"],
  ]);
  assert.deepEqual(headerRecord(h), { vary: "Origin, Accept-Encoding" });
  assert.deepEqual(headerRecord([["X-A", "1"]]), { "x-a": "1" });
  assert.deepEqual(headerRecord(undefined), {});
  const r: Record<string, string> = {};
  appendHeader(r, "vary", "Origin");
  appendHeader(r, "vary", "Accept-Encoding");
  assert.equal(r.vary, "Origin, Accept-Encoding");
});
