/**
 * Runs the Python client's unittest suite (clients/python/tests) against a real API server on a test database:
 * the server's address and the callers' keys reach Python through ORAPI_* environment variables.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { startClientsServer, type ClientsServer } from "../helpers/clients-server";
import { DISCLAIMER } from "../../lib/contract/disclaimer";

let s: ClientsServer;

before(async () => {
  s = await startClientsServer("clientspy");
  // Four stored options-flow events on a symbol of their own, for open_stream (which replays them after "0.0").
  for (let i = 1; i <= 4; i++)
    await s.t.sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
      values ('test', 'flow.block', 'PYST', ${i * 100_000}, ${`py:${i}`}, ${JSON.stringify({ id: `py${i}`, symbol: "PYST", type: "block", premium: i * 100_000 })}::jsonb)`;
});
after(async () => {
  await s?.stop();
});

test("the Python client's unittest suite passes against the real server", async () => {
  const python = process.env.PYTHON ?? "python3";
  const child = spawn(python, ["-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."], {
    cwd: "clients/python",
    env: {
      ...process.env,
      PYTHONDONTWRITEBYTECODE: "1",
      ORAPI_BASE_URL: s.baseUrl,
      ORAPI_DISCLAIMER: DISCLAIMER,
      ORAPI_TEST_KEY: s.testKey,
      ORAPI_PRO_KEY: s.proKey,
      ORAPI_LIMITED_KEY: s.limitedKey,
      ORAPI_INACTIVE_KEY: s.inactiveKey,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", (err) =>
      reject(new Error(`cannot run ${python} (Python 3.9+ is needed; set PYTHON): ${err.message}`)),
    );
    child.on("close", resolve);
  });
  assert.equal(code, 0, out);
  // nothing skips: the idempotency tests run against the server's Idempotency-Key support
  const skipped = out.split("\n").filter((l) => /skipped/i.test(l));
  assert.deepEqual(skipped, [], "no test skipped");
  assert.match(out, /test_lost_answer_retried_creates_one_webhook \(.*\) \.\.\. ok/);
  assert.match(out, /Ran \d+ tests/);
});
