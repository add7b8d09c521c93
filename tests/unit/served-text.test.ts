import { test } from "node:test";
import assert from "node:assert/strict";
import { bodyTextOf, textResponse } from "../../lib/api/served-facts";

test("a textResponse gives its body text back without reading it; any other Response gives nothing", async () => {
  const r = textResponse('{"a":1}', { status: 201, headers: { "content-type": "application/json" } });
  assert.equal(bodyTextOf(r), '{"a":1}');
  assert.equal(r.bodyUsed, false);
  assert.equal(r.status, 201);
  assert.equal(await r.text(), '{"a":1}', "and the body is still there for anyone who reads it");
  assert.equal(bodyTextOf(new Response('{"a":1}')), undefined);
});
