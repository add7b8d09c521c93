/**
 * GET /api/v1/stream through the gateway the standalone server serves (in-process route harness) on PostgreSQL: bad
 * input is refused before the stream opens; events matching the filter arrive and others do not; a client that
 * reconnects with Last-Event-ID misses none and sees none twice; each delivered event is metered once; the per-key
 * stream limit; a revoked key's stream ends with an error event within 5 s; and the producer stores one data version's
 * rows once.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer } from "../helpers/api-server";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { accountWithKey } from "../helpers/accounts";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { changeKeyStatus } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { produceStreamEvents, STREAM_EVENTS_CHANNEL } from "../../lib/engine/stream-events";
import { streamsPerKey } from "../../lib/domain/plans-catalogue";
import { undeclaredInLog } from "../helpers/declared-errors";
import { openSse as open } from "../helpers/sse";

const SEED = "options-research-demo-v1";

describe("live stream", () => {
  let t: TestDatabase;
  let server: Harness;

  before(async () => {
    t = await createSeededTestDatabase("stream", { seed: SEED, now: new Date() });
    await seedReferenceData(t.db, endpointCatalogue());
    server = await startRouteHarness(t.url, { env: { KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" } });
  });
  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  let seq = 0;
  /** Stores rows as the producer would: a state change of one symbol, or one options-flow event. */
  async function state(
    symbol: string,
    prev: { ivRank: number; decision?: string },
    cur: { ivRank: number; decision?: string },
  ) {
    const s = (x: { ivRank: number; decision?: string }) => ({
      ivRank: x.ivRank,
      ivDayChange: 0,
      atmIv30: 0.3,
      decision: x.decision ?? "trade",
      asOf: new Date().toISOString(),
    });
    await t.sql`insert into stream_events (env, kind, symbol, data_version, dedupe_key, payload)
      values ('test', 'state', ${symbol}, ${++seq}, ${`t:${seq}`}, ${JSON.stringify({ prev: s(prev), cur: s(cur) })}::jsonb)`;
  }
  async function flow(symbol: string, type: "sweep" | "block" | "unusual", premium: number) {
    const id = `t:flow:${++seq}`;
    const ev = { id, symbol, type, premium, time: new Date().toISOString(), size: 100, legs: 1 };
    await t.sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
      values ('test', ${`flow.${type}`}, ${symbol}, ${premium}, ${id}, ${JSON.stringify(ev)}::jsonb)`;
  }
  const metered = async (keyId: string) =>
    (
      await t.sql<{ n: number; rows: number; ids: number; daily: number }[]>`
      select coalesce(sum(units) filter (where status = 200), 0)::int as n, count(*)::int as rows,
        count(distinct request_id)::int as ids,
        (select sum(calls)::int from usage_daily where key_id = ${keyId} and endpoint_id = 'GET /api/v1/stream') as daily
      from usage_events where key_id = ${keyId} and endpoint_id = 'GET /api/v1/stream'`
    )[0];

  it("refuses bad filters and Last-Event-ID with 400 in family B's shape before opening", async () => {
    // Test keys have Sandbox's burst of 5 calls a minute: a fresh key for each 4 cases.
    const keys = [
      await accountWithKey(t.db, { plan: "pro", env: "test" }),
      await accountWithKey(t.db, { plan: "pro", env: "test" }),
    ];
    const cases: [string, string | undefined][] = [
      ["events=iv.nope&symbols=AAPL", undefined],
      ["events=flow.sweep&symbols=AAPL$", undefined],
      ["events=iv_rank.crossed_above&symbols=AAPL&iv_rank_above=150", undefined],
      ["events=iv_rank.crossed_above&symbols=AAPL", undefined], // threshold missing
      ["events=flow.sweep&min_premium=-5", undefined],
      ["events=flow.sweep&colour=red", undefined],
      ["events=flow.sweep", "not-an-id"],
    ];
    for (const [i, [q, last]] of cases.entries()) {
      const res = await fetch(`${server.baseUrl}/api/v1/stream?${q}`, {
        headers: { authorization: `Bearer ${keys[i % 2].key}`, ...(last ? { "last-event-id": last } : {}) },
      });
      assert.equal(res.status, 400, q);
      assert.match(res.headers.get("content-type") ?? "", /application\/json/);
      const body = (await res.json()) as { error: { code: string }; disclaimer: string; data: null };
      assert.equal(body.error.code, "invalid_request", q);
      assert.equal(body.data, null);
      assert.ok(body.disclaimer);
    }
  });

  it("refuses live keys of plans without real-time data with 403", async () => {
    const { key } = await accountWithKey(t.db, { plan: "starter", env: "live", style: "sk" });
    const res = await fetch(`${server.baseUrl}/api/v1/stream?events=flow.block`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, "subscription_required");
  });

  it("delivers the events matching the filter, resumes after Last-Event-ID without gaps or repeats, meters each once", async () => {
    const a = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const q =
      "events=iv_rank.crossed_above,flow.block,no_trade.decision_changed&symbols=aapl,MSFT&iv_rank_above=50&min_premium=100000";
    const s1 = await open(server.baseUrl, a.key, q);
    assert.equal(s1.res.status, 200);
    assert.match(s1.res.headers.get("content-type") ?? "", /^text\/event-stream/);
    // Another account's streams in the same rounds: one with the same filter (sent the same events), one with its own
    // threshold and no premium floor (derived apart).
    const b = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const same = await open(server.baseUrl, b.key, q);
    const other = await open(
      server.baseUrl,
      b.key,
      "events=flow.block,iv_rank.crossed_above&symbols=AAPL&iv_rank_above=70",
    );
    await s1.waitFor("the stream to open", () => s1.comments.includes(": stream open"));
    await other.waitFor("the other stream to open", () => other.comments.includes(": stream open"));
    await new Promise((r) => setTimeout(r, 1200)); // the hub has its cursor
    await state("AAPL", { ivRank: 40 }, { ivRank: 60 }); // crossed above 50: yes
    await state("NVDA", { ivRank: 40 }, { ivRank: 60 }); // another symbol: no
    await state("MSFT", { ivRank: 55 }, { ivRank: 70 }); // already above: no
    await flow("AAPL", "block", 250_000); // yes
    await flow("AAPL", "block", 50_000); // below min_premium: no
    await flow("MSFT", "sweep", 900_000); // not subscribed: no
    await state("MSFT", { ivRank: 45, decision: "trade" }, { ivRank: 52, decision: "no_trade" }); // two events
    await s1.waitFor("4 events", () => s1.events.length >= 4);
    await new Promise((r) => setTimeout(r, 1500));
    const got = s1.events.map((e) => [e.event, (e.data as { symbol: string }).symbol]);
    assert.deepEqual(got, [
      ["iv_rank.crossed_above", "AAPL"],
      ["flow.block", "AAPL"],
      ["iv_rank.crossed_above", "MSFT"],
      ["no_trade.decision_changed", "MSFT"],
    ]);
    for (const e of s1.events) {
      const d = e.data as { id: string; type: string; data: Record<string, unknown> };
      assert.equal(d.id, e.id);
      assert.equal(d.type, e.event);
      assert.equal(d.data.isMockData, true);
      assert.ok(d.data.disclaimer);
    }
    assert.equal((s1.events[0].data as { data: { threshold: number } }).data.threshold, 50);
    assert.equal((s1.events[1].data as { data: { premium: number } }).data.premium, 250_000);
    assert.deepEqual(
      same.events.map((e) => e.id),
      s1.events.map((e) => e.id),
      "a stream with the same filter gets the same events",
    );
    assert.deepEqual(
      other.events.map((e) => [e.event, (e.data as { data: { premium: number } }).data.premium]),
      [
        ["flow.block", 250_000],
        ["flow.block", 50_000],
      ],
      "a stream with its own filter gets its own events (40 → 60 does not cross 70)",
    );
    same.close();
    other.close();

    // Disconnect after the second event's id; events stored meanwhile come first on reconnection, then live ones.
    s1.close();
    const resumeFrom = s1.events[1].id as string;
    await flow("MSFT", "block", 300_000);
    const s2 = await open(server.baseUrl, a.key, q, resumeFrom);
    assert.equal(s2.res.status, 200);
    await s2.waitFor("the 3 events after the resume point", () => s2.events.length >= 3);
    await state("AAPL", { ivRank: 10 }, { ivRank: 90 });
    await s2.waitFor("the live event", () => s2.events.length >= 4);
    await new Promise((r) => setTimeout(r, 1500));
    const ids = [...s1.events.slice(0, 2), ...s2.events].map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, `no event twice: ${ids}`);
    const all = [...s1.events.map((e) => e.id)];
    assert.deepEqual(
      s2.events.map((e) => e.id).slice(0, 2),
      all.slice(2),
      "the events s1 saw after the resume point come again, in order",
    );
    assert.deepEqual(
      s2.events.map((e) => e.event),
      ["iv_rank.crossed_above", "no_trade.decision_changed", "flow.block", "iv_rank.crossed_above"],
    );
    s2.close();
    // Opening twice (2 calls) and 4 + 4 delivered events: each metered once (a round's events of one stream are one
    // usage row with their count, under its own request id).
    await new Promise((r) => setTimeout(r, 300));
    const m = await metered(a.keyId);
    assert.equal(m.n, 2 + s1.events.length + s2.events.length);
    assert.equal(m.ids, m.rows, "a request id per usage row");
    assert.ok(m.rows < m.n, "a stream's round of events is one usage row");
    assert.equal(m.daily, m.n, "the daily aggregate counts each event");
    const [{ used }] = await t.sql<{ used: number }[]>`
      select max(count)::int as used from usage_counters where key_id = ${a.keyId} and bucket = 'B:day'`;
    assert.equal(used, m.n, "each delivered event took one unit of the day's quota");
  });

  it("limits concurrent streams per key by plan with 429", async () => {
    const a = await accountWithKey(t.db, { plan: "sandbox", env: "test" }); // a test key: its account plan's limit
    const limit = streamsPerKey("sandbox");
    const streams = [];
    for (let i = 0; i < limit; i++) {
      const s = await open(server.baseUrl, a.key, "events=flow.sweep");
      assert.equal(s.res.status, 200);
      streams.push(s);
    }
    const over = await fetch(`${server.baseUrl}/api/v1/stream?events=flow.sweep`, {
      headers: { authorization: `Bearer ${a.key}` },
    });
    assert.equal(over.status, 429);
    assert.equal(((await over.json()) as { error: { code: string } }).error.code, "rate_limit_exceeded");
    streams[0].close();
    let again = 0;
    await new Promise((r) => setTimeout(r, 500)); // the server sees the disconnection
    for (let i = 0; i < 2 && again !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const s = await open(server.baseUrl, a.key, "events=flow.sweep");
      again = s.res.status;
      if (again === 200) streams.push(s);
    }
    assert.equal(again, 200, "a closed stream frees its slot");
    for (const s of streams) s.close();
  });

  it("reads the per-key stream limit from the plans table (plan data), on every process within the cache's refresh", async () => {
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    await t.sql`update plans set streams_per_key = 1 where id = 'pro'`;
    try {
      const first = await open(server.baseUrl, a.key, "events=flow.sweep");
      assert.equal(first.res.status, 200);
      // The server's plan cache refreshes within CONFIG_CACHE_TTL_MS (4 s here): a second stream is refused by then.
      let status = 0;
      let message = "";
      const by = Date.now() + 8000;
      while (status !== 429 && Date.now() < by) {
        const s = await fetch(`${server.baseUrl}/api/v1/stream?events=flow.sweep`, {
          headers: { authorization: `Bearer ${a.key}` },
        });
        status = s.status;
        if (status === 200) await s.body?.cancel();
        else message = ((await s.json()) as { error: { message: string } }).error.message;
        if (status !== 429) await new Promise((r) => setTimeout(r, 1000));
      }
      assert.equal(status, 429, "the second stream is over the plan's stored limit of 1");
      assert.match(message, /already has 1 open streams/);
      first.close();
    } finally {
      await t.sql`update plans set streams_per_key = ${streamsPerKey("pro")} where id = 'pro'`;
    }
  });

  it("ends a revoked key's stream with an error event within 5 s", async () => {
    const a = await accountWithKey(t.db, { plan: "pro", env: "test" });
    const s = await open(server.baseUrl, a.key, "events=flow.sweep");
    assert.equal(s.res.status, 200);
    await s.waitFor("the stream to open", () => s.comments.includes(": stream open"));
    // Let the key's cache entry be fresh: the worst case is a revocation just after the entry was loaded.
    await new Promise((r) => setTimeout(r, 1100));
    await changeKeyStatus(t.db, a.keyId, "revoke", systemActor("test"));
    const revoked = Date.now();
    await s.waitFor("the error event", () => s.events.some((e) => e.event === "error"), 8000);
    const took = Date.now() - revoked;
    assert.ok(took <= 5000, `ended ${took} ms after the revocation`);
    const err = s.events.find((e) => e.event === "error")?.data as { error: { code: string }; data: null };
    assert.equal(err.error.code, "invalid_api_key");
    await s.waitFor("the stream to end", () => s.ended(), 2000);
  });

  it("ends a stream its client does not read with slow_consumer; Last-Event-ID resumes it exactly", async () => {
    // A real socket (node:http that stops reading): the one case in this file that needs the server process.
    const real = await startApiServer(t.url, { KEY_CACHE_TTL_MS: "4000", CONFIG_CACHE_TTL_MS: "4000" });
    try {
      const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
      const total = 40_000; // about 20 MB of events: more than the 4 MiB bound plus what the sockets hold
      const q = "events=flow.sweep&symbols=SLOW";
      // node:http so that the reader can stop reading (the socket's buffers fill, then the server's queue).
      const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get(`${real.baseUrl}/api/v1/stream?${q}`, { headers: { authorization: `Bearer ${a.key}` } }, resolve)
          .on("error", reject),
      );
      assert.equal(res.statusCode, 200);
      res.pause();
      await new Promise((r) => setTimeout(r, 1200)); // attached
      await t.sql`
        insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
        select 'live', 'flow.sweep', 'SLOW', 1000, 'slow:' || g,
          jsonb_build_object('id', 'slow' || g, 'symbol', 'SLOW', 'type', 'sweep', 'premium', 1000)
        from generate_series(1, ${total}) g`;
      await new Promise((r) => setTimeout(r, 5000)); // every round dispatched; the reader still reads nothing
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
      });
      res.resume();
      await new Promise<void>((resolve) => res.on("end", () => resolve()));
      const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
      assert.ok(ids.length > 0 && ids.length < total, `some events, not all: ${ids.length}`);
      assert.match(text, /event: error\ndata: \{"error":\{"code":"slow_consumer"/);
      assert.ok(text.trimEnd().split("\n\n").at(-1)?.startsWith("event: error"), "the error event is the last");
      const s2 = await open(real.baseUrl, a.key, q, ids.at(-1));
      await s2.waitFor("the rest", () => s2.events.length >= total - ids.length, 30_000);
      s2.close();
      const all = [...ids, ...s2.events.map((e) => e.id)];
      const rows = all.map((id) => Number(String(id).split(".")[0]));
      assert.equal(all.length, total, "every event once");
      assert.ok(
        rows.every((r, i) => i === 0 || r === rows[i - 1] + 1),
        "consecutive rows: none missed, none twice",
      );
    } finally {
      await real.stop();
    }
  });

  it("sends no more events than the day's quota allows, then ends with plan_limit_exceeded", async () => {
    const a = await accountWithKey(t.db, { plan: "pro", env: "live" });
    await t.sql`update plans set b_per_day = 4 where id = 'pro'`;
    await new Promise((r) => setTimeout(r, 4500)); // the server's plan cache refreshes
    try {
      const st = await open(server.baseUrl, a.key, "events=flow.sweep&symbols=QTST"); // the opening call is 1 of 4
      assert.equal(st.res.status, 200);
      await st.waitFor("the stream to open", () => st.comments.includes(": stream open"));
      await new Promise((r) => setTimeout(r, 1200));
      for (let i = 1; i <= 5; i++) {
        const id = `q:${i}`;
        await t.sql`insert into stream_events (env, kind, symbol, premium, dedupe_key, payload)
          values ('live', 'flow.sweep', 'QTST', 1000, ${id}, ${JSON.stringify({ id, symbol: "QTST", type: "sweep", premium: 1000 })}::jsonb)`;
      }
      await st.waitFor("the error event", () => st.events.some((e) => e.event === "error"));
      assert.deepEqual(
        st.events.map((e) => e.event),
        ["flow.sweep", "flow.sweep", "flow.sweep", "error"],
      );
      assert.equal((st.events[3].data as { error: { code: string } }).error.code, "plan_limit_exceeded");
      assert.equal((st.events[0].data as { data: { isMockData: boolean } }).data.isMockData, false);
      const [{ used }] = await t.sql<{ used: number }[]>`
        select max(count)::int as used from usage_counters where key_id in (${a.keyId}, quota_counter_key(${a.keyId})) and bucket = 'B:day'`;
      assert.equal(used, 4);
    } finally {
      await t.sql`update plans set b_per_day = 100000 where id = 'pro'`;
    }
  });

  it("answers only declared error codes", () => {
    assert.deepEqual(undeclaredInLog(server.output()), []);
  });

  it("stores one data version's rows once: changed symbols and new flow events", async () => {
    const st = (ivRank: number) => ({
      ivRank,
      ivDayChange: 1,
      atmIv30: 0.2,
      decision: "trade",
      asOf: "2026-01-01T00:00:00Z",
    });
    const flowEv = {
      id: "fe_1",
      symbol: "AAPL",
      time: new Date().toISOString(),
      type: "block" as const,
      contract: { expiry: "2026-12-18", strike: 200, right: "call" as const },
      size: 500,
      avgPrice: 4,
      premium: 200_000,
      side: "ask" as const,
      sentiment: "bullish" as const,
      exchangeCount: 1,
      legs: 1,
      unusual: false,
      volumeOiRatio: null,
    };
    const now = new Date();
    const notified: string[] = [];
    const listening = await t.sql.listen(STREAM_EVENTS_CHANNEL, (env) => notified.push(env));
    const before = (await t.sql<{ n: number }[]>`select count(*)::int as n from stream_events where env = 'live'`)[0].n;
    await produceStreamEvents(t, "live", 1_000_001, { AAPL: st(10), MSFT: st(20) }, [], now);
    assert.equal(await produceStreamEvents(t, "live", 1_000_002, { AAPL: st(30), MSFT: st(20) }, [flowEv], now), 2);
    assert.equal(await produceStreamEvents(t, "live", 1_000_002, { AAPL: st(50), MSFT: st(20) }, [flowEv], now), 0);
    assert.equal(await produceStreamEvents(t, "live", 1_000_003, { AAPL: st(50), MSFT: st(20) }, [flowEv], now), 1);
    const rows = await t.sql<{ kind: string; symbol: string }[]>`
      select kind, symbol from stream_events where env = 'live' order by id offset ${before}`;
    assert.deepEqual(
      rows.map((r) => `${r.kind}:${r.symbol}`),
      ["state:AAPL", "flow.block:AAPL", "state:AAPL"],
    );
    // The hubs are woken once per version that stored rows (the first and third stored none).
    const until = Date.now() + 3000;
    while (notified.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    await listening.unlisten();
    assert.deepEqual(notified, ["live", "live"]);

    // A process remembers the flow rows it knows are stored and does not send them again (a demo night session keeps
    // thousands in view); without that memory a stored row is only refused by its dedupe key.
    const known = new Set<string>();
    const again = { ...flowEv, id: "fe_2" };
    assert.equal(
      await produceStreamEvents(t, "live", 1_000_004, { AAPL: st(50), MSFT: st(20) }, [again], now, known),
      1,
    );
    assert.deepEqual([...known], ["live:flow:fe_2"]);
    await t.sql`delete from stream_events where dedupe_key = 'live:flow:fe_2'`;
    assert.equal(
      await produceStreamEvents(t, "live", 1_000_005, { AAPL: st(50), MSFT: st(20) }, [again], now, known),
      0,
    );
    assert.equal(await produceStreamEvents(t, "live", 1_000_006, { AAPL: st(50), MSFT: st(20) }, [again], now), 1);
  });
});
