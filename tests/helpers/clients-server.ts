/**
 * One real API server on a fresh test database for the client-library tests, with the callers they need: a test key
 * (Sandbox, demo data), a Pro live key (webhooks), an Enterprise live key on a per-minute limit of 1 (a real 429),
 * and a deactivated key. Plans are data: the test raises Sandbox's limits and sets the others' as it needs.
 */
import { createSeededTestDatabase, createTestDatabase, type TestDatabase } from "./test-db";
import { startApiServer, type RunningServer } from "./api-server";
import { accountWithKey } from "./accounts";
import { lastFridayClose } from "./live-data";
import { demoInstrumentsOn, writeDailySnapshots } from "../../lib/engine/history";
import { changeKeyStatus } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";

export interface ClientsServer {
  t: TestDatabase;
  server: RunningServer;
  baseUrl: string;
  testKey: string;
  proKey: string;
  proAccountId: string;
  limitedKey: string;
  inactiveKey: string;
  stop(): Promise<void>;
}

/** `market: false` skips the demo market (the slow part) for tests that only touch account resources. */
export async function startClientsServer(label: string, opts: { market?: boolean } = {}): Promise<ClientsServer> {
  const now = lastFridayClose(new Date());
  const t =
    opts.market === false
      ? await createTestDatabase(label)
      : await createSeededTestDatabase(label, { seed: "options-research-demo-v1", now });
  let server: RunningServer | undefined;
  try {
    if (opts.market !== false) {
      // A week of daily snapshots for the history methods (the seed writes a year; a week is enough here).
      const since = new Date(+now - 7 * 86_400_000).toISOString().slice(0, 10);
      await writeDailySnapshots(t.db, "demo", { since, instrumentsOn: demoInstrumentsOn("options-research-demo-v1") });
    }
    server = await startApiServer(t.url, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "development" });
    await t.sql`update plans set a_per_minute = 100000, a_per_month = 100000, b_per_minute = 100000, b_per_day = 100000 where id = 'sandbox'`;
    // Pro: family A quota spent from the start (403 plan_limit_exceeded); Enterprise: one call a minute (429).
    await t.sql`update plans set a_per_month = 0, b_per_minute = 100000, b_per_day = 100000 where id = 'pro'`;
    await t.sql`update plans set b_per_minute = 1 where id = 'enterprise'`;
    const test = await accountWithKey(t.db);
    const pro = await accountWithKey(t.db, { plan: "pro", env: "live" });
    const limited = await accountWithKey(t.db, { plan: "enterprise", env: "live" });
    const inactive = await accountWithKey(t.db);
    await changeKeyStatus(t.db, inactive.keyId, "deactivate", systemActor("test"));
    const running = server;
    return {
      t,
      server: running,
      baseUrl: running.baseUrl,
      testKey: test.key,
      proKey: pro.key,
      proAccountId: pro.accountId,
      limitedKey: limited.key,
      inactiveKey: inactive.key,
      async stop() {
        await running.stop();
        await t.drop();
      },
    };
  } catch (err) {
    await server?.stop();
    await t.drop();
    throw err;
  }
}

/** Waits until the current UTC minute has at least `seconds` left, so a burst window does not roll over mid-test. */
export async function minuteHeadroom(seconds: number): Promise<void> {
  const left = 60 - new Date().getUTCSeconds();
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}
