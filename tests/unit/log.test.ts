import { test } from "node:test";
import assert from "node:assert/strict";
import { errorFields } from "../../lib/log";

test("logged errors never carry query parameters (they can be secrets)", () => {
  const err = new Error(
    "Failed query: insert into webhooks (id, signing_secret) values ($1, $2)\nparams: wh_1,whsec_c2VjcmV0",
  );
  err.stack = `${err.message}\n    at insert (file:///x.js:1:1)`;
  const fields = errorFields(err);
  assert.doesNotMatch(JSON.stringify(fields), /whsec_/);
  assert.match(String(fields.error), /params: \[redacted\]/);
  assert.match(String(fields.stack), /at insert/);
});

test("the driver's own message comes along as the cause", () => {
  const err = new Error("Failed query: select 1", {
    cause: Object.assign(new Error("relation does not exist"), { code: "42P01" }),
  });
  const fields = errorFields(err);
  assert.equal(fields.cause, "relation does not exist");
  assert.equal(fields.cause_code, "42P01");
});
