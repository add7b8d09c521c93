/**
 * Log lines are one JSON object per line whatever the input (issue 30 item 4): a NUL or another control character in a
 * message, a field or an error is escaped, never written raw, and a key-shaped string is masked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { errorFields, log, setLogSink } from "../../lib/log";

test("control characters are escaped and keys masked: one parseable line per call", () => {
  const lines: string[] = [];
  setLogSink((line) => lines.push(line));
  try {
    log.info("bad input x\u0000y", { name: "a\u0001b\nc", q: "probe=\u0000" });
    log.error("failed", errorFields(new Error("value \u0000 for svc_live_AbCd1234567890abcdefghij12 refused")));
  } finally {
    setLogSink(null);
  }
  assert.equal(lines.length, 2);
  for (const line of lines) {
    const raw = [...line].filter((c) => c.charCodeAt(0) < 0x20);
    assert.deepEqual(raw, [], "no raw control character");
    assert.ok(JSON.parse(line));
  }
  assert.equal(JSON.parse(lines[0]).msg, "bad input x\u0000y");
  assert.match(lines[1], /svc_live_AbCd…/);
  assert.doesNotMatch(lines[1], /AbCd1234567890/);
});
