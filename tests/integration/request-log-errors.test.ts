/**
 * The request log's error bodies (issue 28 item 7): an error answer's message is kept with its usage event, secrets taken
 * out, and the log rebuilds the body the caller got from it, on the admission path (handler errors, refusals before the
 * limits) and on the settle path (calls that touch account state); 2xx rows keep nothing.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { changeKeyStatus, createKey } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { requestLog } from "../../lib/domain/request-log";
import { loggedErrorBody } from "../../lib/api/logged-error";

let t: TestDatabase;
let api: Harness;

describe("request log error bodies", () => {
  before(async () => {
    t = await createSeededTestDatabase("request_log_errors", { seed: "options-research-demo-v1", now: new Date() });
    api = await startRouteHarness(t.url);
  });
  after(async () => {
    await api?.stop();
    await t?.drop();
  });

  const send = async (key: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(api.baseUrl + path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    });
    return { status: res.status, requestId: res.headers.get("x-request-id")!, text: await res.text() };
  };
  const logged = async (accountId: string, requestId: string) => {
    const { entries } = await requestLog(t.db, accountId, { requestId }, undefined, loggedErrorBody);
    assert.equal(entries.length, 1, requestId);
    return entries[0];
  };

  it("a state-touching call's refusal (settle path) and a deactivated key's (before the limits) give their bodies back", async () => {
    const { accountId, key } = await accountWithKey(t.db);
    const alert = await send(key, "/api/v1/alerts", { method: "POST", body: JSON.stringify({ url: "nope" }) });
    assert.ok(alert.status >= 400, alert.text);
    assert.equal(JSON.stringify((await logged(accountId, alert.requestId)).errorBody), alert.text);

    const spare = await createKey(t.db, { accountId, env: "test" }, systemActor("test"));
    await changeKeyStatus(t.db, spare.id, "deactivate", systemActor("test"));
    const inactive = await send(spare.key, "/api/v1/data/yield-curve");
    assert.equal(inactive.status, 403);
    assert.equal(JSON.stringify((await logged(accountId, inactive.requestId)).errorBody), inactive.text);

    const ok = await send(key, "/api/v1/ticker/AAPL/summary");
    assert.equal(ok.status, 200);
    assert.equal((await logged(accountId, ok.requestId)).errorBody, null);
    const [{ n }] = await t.sql`select count(*)::int as n from usage_events
      where account_id = ${accountId} and status between 200 and 299 and error_message is not null`;
    assert.equal(n, 0, "2xx rows keep no message");
  });

  it("a message quoting a key-shaped value keeps it redacted; the rest of the body is as sent", async () => {
    const { accountId, key } = await accountWithKey(t.db);
    const secret = `svc_test_${"A".repeat(30)}`;
    const res = await send(key, `/api/v1/options-flow?symbol=${secret}`);
    assert.equal(res.status, 400, res.text);
    const entry = await logged(accountId, res.requestId);
    const [{ message }] =
      await t.sql`select error_message as message from usage_events where request_id = ${res.requestId}`;
    assert.ok(!String(message).includes("AAAAAAAAAA"), `kept: ${message}`);
    assert.equal(JSON.stringify(entry.errorBody), res.text.replaceAll(secret, "svc_test_REDACTED"));
  });
});
