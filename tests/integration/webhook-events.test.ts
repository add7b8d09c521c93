/**
 * Events from real analytics recomputes: two server processes recompute after a demo market tick (advanceDemoMarket
 * bumps the data version), the event is written once, not once per process, and delivered once to each subscriber.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { systemActor } from "../../lib/domain/audit";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { startReceiver, waitFor, type Receiver } from "../helpers/webhook-receiver";
import { advanceDemoMarket } from "../../lib/market/demo-market-writer";
import { registerWebhook } from "../../lib/domain/webhooks";
import { lastFridayClose } from "../helpers/live-data";
import { readMarketVersions } from "../../lib/market/versions";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";

const SEED = "options-research-demo-v1";

describe("webhook events from analytics recomputes", () => {
  let t: TestDatabase;
  let servers: RunningServer[] = [];
  let r: Receiver;
  // Mid-session (the last Friday, 17:30 UTC), so that a one-minute tick writes prints, bars and a chain snapshot.
  const seededAt = new Date(lastFridayClose(new Date()).getTime() - 3.5 * 3_600_000);

  before(async () => {
    t = await createSeededTestDatabase("whevents", { seed: SEED, now: seededAt });
    await seedReferenceData(t.db, endpointCatalogue());
    r = await startReceiver();
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await r?.close();
    await t?.drop();
  });

  const stateVersion = async () =>
    (await t.sql<{ v: number }[]>`select data_version as v from webhook_event_state where env = 'test'`)[0]?.v ?? null;

  it("a demo tick recomputed by two processes yields each event once, delivered once per subscriber", async () => {
    // Test keys' webhooks follow the demo market; two subscribers to the same symbol and event.
    const hooks = [];
    for (let i = 0; i < 2; i++) {
      const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
      const w = await registerWebhook(
        t.db,
        { accountId: a.accountId, keyId: a.keyId, env: "test" },
        {
          url: r.url,
          events: ["no_trade.decision_changed", "iv_rank.crossed_above"],
          symbols: ["AAPL"],
          ivRankAbove: 0,
        },
        systemActor("test"),
      );
      r.secrets.push(w.signingSecret);
      hooks.push(w);
    }
    servers = await Promise.all(
      [0, 1].map(() => startApiServer(t.url, { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "development" })),
    );
    const v1 = (await readMarketVersions(t.db)).demo;
    await waitFor("the first version to be recorded", async () => (await stateVersion()) === v1);
    const [{ iv }] = await t.sql<
      { iv: number | null }[]
    >`select (symbols -> 'AAPL' ->> 'ivRank')::float8 as iv from webhook_event_state where env = 'test'`;
    assert.ok(iv !== null && iv > 0, `AAPL has an IV rank above 0 in the demo market (${iv})`);
    // Make the recorded state say AAPL was below the threshold under another decision, so the next version crosses.
    await t.sql`update webhook_event_state set symbols = jsonb_set(jsonb_set(symbols, '{AAPL,ivRank}', '-1'), '{AAPL,decision}', '"unknown"') where env = 'test'`;
    const tick = await advanceDemoMarket(t.db, {
      seed: SEED,
      from: seededAt,
      to: new Date(seededAt.getTime() + 60_000),
    });
    assert.ok(tick.version > v1);
    await waitFor("the tick's version to be processed", async () => (await stateVersion()) === tick.version);
    await waitFor("4 deliveries (2 events × 2 subscribers)", () => r.received.length >= 4);
    await new Promise((res) => setTimeout(res, 1500)); // both workers had time to deliver anything extra
    const events = await t.sql<
      { type: string; n: number }[]
    >`select type, count(*)::int as n from webhook_events where env = 'test' group by type order by type`;
    assert.deepEqual(
      events.map((e) => [e.type, e.n]),
      [
        ["iv_rank.crossed_above", 1],
        ["no_trade.decision_changed", 1],
      ],
    );
    assert.equal(r.received.length, 4, "each event once per subscriber, though two processes recomputed");
    assert.equal(new Set(r.received.map((x) => x.id)).size, 2, "both subscribers see the event's one id");
    for (const got of r.received) {
      assert.equal(got.verifiedBy.length, 1);
      const body = JSON.parse(got.body);
      assert.ok(Buffer.byteLength(got.body) < 20_000);
      assert.equal(body.data.symbol, "AAPL");
      assert.equal(body.data.isMockData, true);
      assert.equal(body.data.dataLabel, "demo");
      assert.equal(body.data.dataVersion, tick.version);
      assert.equal(body.data.disclaimer, DISCLAIMER);
      if (body.type === "no_trade.decision_changed") assert.equal(body.data.previousDecision, "unknown");
      else assert.equal(body.data.previousIvRank, -1);
    }
  });
});
