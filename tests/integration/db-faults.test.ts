/**
 * Database faults on a cluster of the test's own (never the shared server): a 10 s outage answers every call 503
 * within DB_DEADLINE_MS + 1 s, an unreachable database likewise, every process serves 2xx within 3 s of the database
 * returning, every 2xx the client saw is metered, one process ticks the demo market after a restart, SIGTERM under
 * keep-alive load answers every call and exits 0 within SHUTDOWN_GRACE_MS, and a taken port is one line before any
 * migration. Operations behaviour: docs/reliability.md.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Agent, request } from "node:http";
import { createServer, type Server } from "node:net";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { clusterUnavailableReason, createPgCluster, type PgCluster } from "../helpers/pg-cluster";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { startApiServer, type RunningServer, errorCodeOf, freePort } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { openDatabase, type Database } from "../../lib/db/client";
import { runMigrations } from "../../lib/db/migrate";
import { seedDemoMarket } from "../../lib/market/demo-market-writer";
import { DEMO_TICKER_LOCK } from "../../lib/market/store-ticker";

/** From then on every call of every process must be 2xx (the first 2xx must come within 3 s). */
const STEADY_AFTER_RESTART_MS = 8000;
const DEADLINE_MS = 2000;
const GRACE_MS = 5000;
const SUMMARY = "/api/v1/ticker/AAPL/summary";
const skip = clusterUnavailableReason();

interface Answer {
  server: number;
  status: number; // 0: no answer (connection error)
  code: string | null;
  error?: string;
  reused?: boolean;
  retryAfter: string | null;
  requestId: string;
  start: number;
  end: number;
}

/** One call on a keep-alive agent; a connection error is recorded, not thrown. */
function hit(base: string, path: string, agent: Agent, key: string | null, server: number): Promise<Answer> {
  const requestId = `fault-${randomBytes(8).toString("hex")}`;
  const start = Date.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "x-request-id": requestId };
    if (key) headers.authorization = `Bearer ${key}`;
    const req = request(base + path, { agent, headers, timeout: 30_000 }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () =>
        resolve({
          server,
          status: res.statusCode ?? 0,
          code: errorCodeOf(text),
          retryAfter: (res.headers["retry-after"] as string | undefined) ?? null,
          requestId,
          start,
          end: Date.now(),
        }),
      );
      res.on("error", (err) =>
        resolve({
          server,
          status: 0,
          code: null,
          error: String(err),
          retryAfter: null,
          requestId,
          start,
          end: Date.now(),
        }),
      );
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      resolve({
        server,
        status: 0,
        code: null,
        error: err.code ?? String(err),
        reused: req.reusedSocket,
        retryAfter: null,
        requestId,
        start,
        end: Date.now(),
      }),
    );
    req.end();
  });
}

/** Workers calling `path` on each server until stopped; returns every answer. */
function load(servers: RunningServer[], key: string, perServer: number, path = SUMMARY) {
  const answers: Answer[] = [];
  let running = true;
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: perServer }));
  const workers = servers.flatMap((s, i) =>
    Array.from({ length: perServer }, async () => {
      while (running) {
        const a = await hit(s.baseUrl, path, agents[i], key, i);
        answers.push(a);
        if (a.status === 0) await new Promise((r) => setTimeout(r, 50));
      }
    }),
  );
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(workers);
      for (const a of agents) a.destroy();
      return answers;
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("database faults", { skip: skip ?? false }, () => {
  let cluster: PgCluster;
  let proxy: TcpProxy;
  let database: Database; // direct, for setup and checks
  let servers: RunningServer[] = [];
  let key: string;
  const seen: Answer[] = []; // every answer of the suite, for the metering check

  before(async () => {
    cluster = await createPgCluster();
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    await admin`create database faults`;
    await admin`create database untouched`;
    await admin.end();
    database = openDatabase(cluster.url("faults"), { max: 4 });
    await runMigrations(database);
    await seedDemoMarket(database.db, { seed: "options-research-demo-v1", now: new Date() });
    proxy = await startTcpProxy(cluster.port);
    const viaProxy = `postgres://postgres@127.0.0.1:${proxy.port}/faults`;
    const env = {
      DB_DEADLINE_MS: String(DEADLINE_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      DEMO_TICKER: "on",
      LOG_LEVEL: "info", // the shutdown's "stopped" line
    };
    servers = await Promise.all([startApiServer(viaProxy, env), startApiServer(viaProxy, env)]);
    await database.sql`update plans set a_per_minute = 1000000, a_per_month = 1000000000, b_per_minute = 1000000, b_per_day = 1000000000`;
    key = (await accountWithKey(database.db)).key;
  });

  after(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill("SIGKILL");
    await database?.close().catch(() => {});
    await proxy?.close();
    cluster?.destroy();
  });

  it("a taken port is one log line and exit 1, before any migration runs", async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", r));
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/api-server.ts"], {
        env: { ...process.env, DATABASE_URL: cluster.url("untouched"), API_PORT: String(port), HOST: "127.0.0.1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
      assert.equal(code, 1);
      const lines = out.trim().split("\n");
      assert.equal(lines.length, 1, out);
      assert.match(lines[0], /address already in use/);
      const untouched = postgres(cluster.url("untouched"), { max: 1, onnotice: () => {} });
      const [{ n }] =
        await untouched`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
      await untouched.end();
      assert.equal(n, 0, "no migration ran");
    } finally {
      blocker.close();
    }
  });

  it("a 10 s outage answers 503 within the deadline; after restart every process serves 2xx within 3 s; one ticker", async () => {
    const running = load(servers, key, 6);
    await sleep(1500);
    const stopAt = Date.now();
    cluster.stop();
    const stoppedAt = Date.now();
    await sleep(10_000 - (stoppedAt - stopAt));
    const healthDuring = await Promise.all(
      servers.map((s, i) => hit(s.baseUrl, "/api/v1/health", new Agent(), null, i)),
    );
    cluster.start();
    const readyAt = Date.now();
    await sleep(9500);
    const answers = await running.stop();
    seen.push(...answers);

    for (const h of healthDuring) assert.equal(h.status, 503, "health is degraded while the database is down");
    assert.deepEqual(
      answers.filter((a) => a.status === 0).map((a) => a.error),
      [],
      "every call got an answer",
    );
    const during = answers.filter((a) => a.start >= stoppedAt && a.end <= readyAt);
    assert.ok(during.length > 20, `calls during the outage: ${during.length}`);
    for (const a of during) {
      assert.equal(a.status, 503, `during the outage: ${a.status} ${a.code}`);
      assert.equal(a.code, "data_source_unavailable");
      assert.ok(a.retryAfter, "Retry-After on 503");
    }
    for (const a of answers.filter((x) => x.start >= stopAt))
      assert.ok(a.end - a.start <= DEADLINE_MS + 1000, `answered in ${a.end - a.start} ms (status ${a.status})`);
    for (let i = 0; i < servers.length; i++) {
      const after = answers.filter((a) => a.server === i && a.start >= readyAt);
      const firstOk = after.find((a) => a.status === 200);
      assert.ok(firstOk, `server ${i} served 2xx after the restart`);
      assert.ok(firstOk.end - readyAt <= 3000, `server ${i} first 2xx ${firstOk.end - readyAt} ms after restart`);
      // A pooled socket that died with the old server can still answer one 503 when it is next used, for a few
      // seconds after the first 2xx (seen in CI-like runs); steady 2xx is checked from 8 s after the restart.
      const late = after.filter((a) => a.start >= readyAt + STEADY_AFTER_RESTART_MS);
      assert.ok(late.length > 0);
      assert.deepEqual(
        late.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code}`),
        [],
        `server ${i} answers only 2xx from ${STEADY_AFTER_RESTART_MS} ms after the restart`,
      );
    }

    // The ticker's lock: exactly one holder once a tick ran after the restart, and still one a tick later.
    const holders = () =>
      database.sql<{ n: number }[]>`select count(*)::int as n from pg_locks
        where locktype = 'advisory' and classid = 0 and objid::bigint = ${DEMO_TICKER_LOCK} and granted`;
    let n = 0;
    for (let waited = 0; waited < 12_000 && n === 0; waited += 250) {
      [{ n }] = await holders();
      if (n === 0) await sleep(250);
    }
    assert.equal(n, 1, "one ticker holds the lock after the restart");
    await sleep(5500);
    assert.equal((await holders())[0].n, 1, "still exactly one ticker a tick later");
    for (const s of servers) assert.equal(s.child.exitCode, null, `server still runs:\n${s.output()}`);
    assert.doesNotMatch(servers.map((s) => s.output()).join("\n"), /uncaught|unhandled/i);
  });

  it("an unreachable database answers 503 within the deadline; 2xx within 3 s once it is reachable again", async () => {
    const running = load(servers, key, 6);
    await sleep(1000);
    const cutAt = Date.now();
    proxy.cut();
    await sleep(5000);
    proxy.restore();
    const restoredAt = Date.now();
    await sleep(4000);
    const answers = await running.stop();
    seen.push(...answers);

    assert.deepEqual(
      answers.filter((a) => a.status === 0).map((a) => a.error),
      [],
    );
    const during = answers.filter((a) => a.start >= cutAt + 100 && a.end <= restoredAt);
    assert.ok(during.length > 10, `calls while unreachable: ${during.length}`);
    for (const a of during) assert.equal(a.status, 503, `while unreachable: ${a.status} ${a.code}`);
    for (const a of answers.filter((x) => x.start >= cutAt))
      assert.ok(a.end - a.start <= DEADLINE_MS + 1000, `answered in ${a.end - a.start} ms (status ${a.status})`);
    for (let i = 0; i < servers.length; i++) {
      const late = answers.filter((a) => a.server === i && a.start >= restoredAt + 3000);
      assert.ok(late.length > 0);
      assert.deepEqual(
        late.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.code}`),
        [],
        `server ${i} answers 2xx from 3 s after the database is reachable`,
      );
    }
  });

  it("SIGTERM under keep-alive load answers every call and exits 0 within SHUTDOWN_GRACE_MS", async () => {
    const [victim] = servers;
    const running = load([victim], key, 8);
    await sleep(1500);
    const termAt = Date.now();
    const exited = new Promise<{ code: number | null; at: number }>((r) =>
      victim.child.once("exit", (code) => r({ code, at: Date.now() })),
    );
    victim.child.kill("SIGTERM");
    const { code, at } = await exited;
    await sleep(300);
    const answers = await running.stop();
    seen.push(...answers);
    assert.equal(code, 0, victim.output());
    assert.ok(at - termAt <= GRACE_MS, `exited ${at - termAt} ms after SIGTERM`);
    // After SIGTERM new connections are refused (never accepted); an accepted call always gets its answer.
    const lost = answers.filter((a) => a.status === 0 && a.error !== "ECONNREFUSED");
    assert.deepEqual(lost, [], "no call lost");
    assert.ok(
      answers.some((a) => a.status === 200 && a.end > termAt),
      "calls on open connections were still answered after SIGTERM",
    );
    assert.match(victim.output(), /"msg":"stopped"/, "the shutdown steps ran");
  });

  it("every 2xx the clients saw is metered", async () => {
    const ok = seen.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.requestId);
    assert.ok(ok.length > 100, `2xx answers: ${ok.length}`);
    const rows = await database.sql<{ request_id: string }[]>`
      select request_id from usage_events where request_id = any(${ok}) and status between 200 and 299`;
    const metered = new Set(rows.map((r) => r.request_id));
    assert.deepEqual(
      ok.filter((id) => !metered.has(id)),
      [],
      "unmetered 2xx",
    );
  });
});
