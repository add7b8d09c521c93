/**
 * What the request log keeps of an error answer (lib/api/logged-error.ts): the message, key-shaped values and URL
 * credentials taken out, bounded; and the body rebuilt from it is the very text the pipeline sends, in both families.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LOGGED_ERROR_MAX, loggedErrorBody, loggedErrorMessage } from "../../lib/api/logged-error";
import { errorBody, keyedErrorContext } from "../../lib/api/envelope";

test("a kept message has no key-shaped value, no URL credentials, no NUL, and is bounded", () => {
  const key = `svc_live_${"B".repeat(30)}`;
  assert.equal(
    loggedErrorMessage(`bad symbol '${key}' and https://user:pa55@example.com/hook`),
    "bad symbol 'svc_live_REDACTED' and https://REDACTED@example.com/hook",
  );
  assert.equal(loggedErrorMessage("a\u0000b"), "ab");
  const long = loggedErrorMessage("x".repeat(5000));
  assert.equal(long.length, LOGGED_ERROR_MAX);
  assert.ok(long.endsWith("…"));
  assert.equal(
    loggedErrorMessage("Per-minute limit of 10 requests reached; retry in 3 s."),
    "Per-minute limit of 10 requests reached; retry in 3 s.",
  );
});

test("the rebuilt body is the text the pipeline sends, in both families and both environments", () => {
  const time = new Date("2026-11-27T07:05:03.123Z");
  for (const family of ["A", "B"] as const)
    for (const env of ["test", "live"] as const) {
      const sent = JSON.stringify(
        errorBody(family, { code: "symbol_not_found", message: "No data for ZZZZ." }, keyedErrorContext(env, time)),
      );
      const rebuilt = loggedErrorBody({ family, env, code: "symbol_not_found", message: "No data for ZZZZ.", time });
      assert.equal(JSON.stringify(rebuilt), sent, `${family} ${env}`);
    }
  const b = loggedErrorBody({ family: "B", env: "test", code: "x", message: "m", time }) as Record<string, unknown>;
  assert.deepEqual([b.timestamp, b.dataLabel, b.isMockData], ["2026-11-27T07:05:03.123Z", "demo", true]);
});
