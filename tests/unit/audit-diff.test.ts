import assert from "node:assert/strict";
import { test } from "node:test";
import { auditDiff } from "../../lib/shared/audit-diff";

test("only changed fields, old and new as text", () => {
  assert.deepEqual(auditDiff({ status: "active", plan: "pro" }, { status: "inactive", plan: "pro", reason: "fraud" }), [
    { field: "status", before: "active", after: "inactive" },
    { field: "reason", before: null, after: "fraud" },
  ]);
});

test("a creation (no before) lists every field; nested values as JSON; non-objects as one value", () => {
  assert.deepEqual(auditDiff(null, { keys: ["a", "b"] }), [{ field: "keys", before: null, after: '["a","b"]' }]);
  assert.deepEqual(auditDiff(null, null), []);
  assert.deepEqual(auditDiff("x", 3), [{ field: "value", before: "x", after: "3" }]);
});
