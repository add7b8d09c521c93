/**
 * `npm run -s cli -- webhooks listen` as a child process against the real standalone server: it prints the session's
 * signing secret first, opens the test key's filtered stream, and forwards each matching event to a local receiver as
 * a Standard Webhooks delivery that the published `standardwebhooks` package verifies with that secret. A live key and
 * a non-local target are refused before anything opens.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { startReceiver } from "../helpers/webhook-receiver";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { bundled } from "../helpers/bundles";

function cli(args: string[]): { child: ChildProcess; out: () => string; err: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, [bundled("cli"), ...args], {
    env: { ...process.env, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (err += c));
  const exited = new Promise<number>((r) => child.on("exit", (code) => r(code ?? 1)));
  return { child, out: () => out, err: () => err, exited };
}

async function until(what: string, ok: () => boolean, ms = 30_000) {
  const by = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > by) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("cli webhooks listen", () => {
  let t: TestDatabase;
  let server: RunningServer;

  before(async () => {
    t = await createSeededTestDatabase("webhooks_listen", { seed: "options-research-demo-v1", now: new Date() });
    await seedReferenceData(t.db, endpointCatalogue());
    server = await startApiServer(t.url);
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  it("forwards a matching stream event as a delivery standardwebhooks verifies with the printed secret", async () => {
    const a = await accountWithKey(t.db, { plan: "sandbox", env: "test" });
    const receiver = await startReceiver([], () => ({ status: 204 }));
    const run = cli([
      "webhooks",
      "listen",
      "--forward-to",
      `${receiver.url}/hooks`,
      "--events",
      "flow.block",
      "--symbols",
      "AAPL",
      "--key",
      a.key,
      "--api-url",
      server.baseUrl,
    ]);
    try {
      await until("the secret line", () => /whsec_\S+/.test(run.out()));
      const secret = /whsec_[A-Za-z0-9+/=]+/.exec(run.out())?.[0] as string;
      assert.match(
        run.out().split("\n")[0],
        /^Ready\. Your webhook signing secret is whsec_/,
        "the secret comes first",
      );
      receiver.secrets.push(secret);
      await new Promise((r) => setTimeout(r, 1500)); // the stream is open and the hub has its cursor
      const payload = (symbol: string, premium: number, id: string) =>
        JSON.stringify({ id, symbol, type: "block", premium, time: new Date().toISOString(), size: 100, legs: 1 });
      await t.sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload) values
        ('test', 'flow.block', 'MSFT', 500000, 'listen:1', ${payload("MSFT", 500000, "listen:1")}::jsonb),
        ('test', 'flow.block', 'AAPL', 250000, 'listen:2', ${payload("AAPL", 250000, "listen:2")}::jsonb)`;
      await until("a delivery", () => receiver.received.length >= 1);
      await new Promise((r) => setTimeout(r, 1500)); // nothing else arrives
      assert.equal(receiver.received.length, 1, "only the AAPL block passes the filter");
      const [got] = receiver.received;
      assert.deepEqual(got.verifiedBy, [0], "verified by standardwebhooks with the printed secret");
      const body = JSON.parse(got.body);
      assert.equal(body.type, "flow.block");
      assert.equal(body.data.symbol, "AAPL");
      assert.equal(body.data.premium, 250000);
      assert.equal(body.data.isMockData, true);
      assert.equal(body.data.dataLabel, "demo");
      await until("the forwarded line", () => /--> flow\.block AAPL msg_listen_\S+ {2}\[204\]/.test(run.out()));
    } finally {
      run.child.kill("SIGINT");
      assert.equal(await run.exited, 0, run.err());
      await receiver.close();
    }
  });

  it("refuses a live key and a target off this machine before opening anything", async () => {
    const live = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const a = await accountWithKey(t.db, { plan: "sandbox", env: "test" });
    for (const [args, message] of [
      [["--forward-to", "http://localhost:9/x", "--key", live.key], /takes a test key/],
      [["--forward-to", "http://example.com/x", "--key", a.key], /on this machine/],
      [["--key", a.key], /--forward-to is required/],
    ] as const) {
      const run = cli(["webhooks", "listen", ...args, "--api-url", server.baseUrl]);
      assert.notEqual(await run.exited, 0);
      assert.match(run.err(), message);
      assert.equal(run.out(), "", "no secret printed");
    }
  });
});
