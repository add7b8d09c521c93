/**
 * Load for the fault suites (tests/integration/db-faults*.test.ts): workers calling a route on keep-alive connections,
 * every answer recorded (status, error code, Retry-After, request id, timing), connection errors recorded, not thrown.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { errorCodeOf } from "./api-server";
import { accountWithKey } from "./accounts";
import { createPgCluster, type PgCluster } from "./pg-cluster";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";
import { openDatabase, type Database } from "../../lib/db/client";
import { runMigrations } from "../../lib/db/migrate";
import { seedDemoMarket } from "../../lib/market/demo-market-writer";
import { DEMO_TICKER_LOCK } from "../../lib/market/store-ticker";

export const SUMMARY = "/api/v1/ticker/AAPL/summary";

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server under load: where it answers and what it logged. */
export interface LoadTarget {
  baseUrl: string;
  output(): string;
}

export interface Answer {
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
export function hit(base: string, path: string, agent: Agent, key: string | null, server: number): Promise<Answer> {
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
export function load(servers: LoadTarget[], key: string, perServer: number, path = SUMMARY) {
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

/** A server's last log lines other than request lines, for an assertion message. */
function logTail(server: LoadTarget): string {
  const lines = server
    .output()
    .split("\n")
    .filter((line) => !line.includes('"msg":"request"'));
  return lines.slice(-30).join("\n");
}

/** A failed call for an assertion message: when it ran relative to `t0`, its answer, and what its server logged. */
export function explain(a: Answer, t0: number, server: LoadTarget): string {
  const logged = server
    .output()
    .split("\n")
    .filter((line) => line.includes(a.requestId) && !line.includes('"msg":"request"'))
    .join(" | ");
  return `+${a.start - t0}..${a.end - t0} ms: ${a.status} ${a.code ?? a.error ?? ""} ${logged}`.trim();
}

export const DEADLINE_MS = 2000;
export const GRACE_MS = 5000;
/** From this long after the database is back, every call of every process must be 2xx. */
export const RECOVERY_MS = 3000;

/** What the fault checks need of a server process. */
export interface FaultTarget extends LoadTarget {
  child: ChildProcess;
}

/**
 * Stops the cluster for 10 s under load on every server, starts it again and keeps the load for 9.5 s more; asserts
 * every call during the outage answered 503 data_source_unavailable with Retry-After within DB_DEADLINE_MS + 1 s,
 * health degraded, no connection error, and on every server a 2xx within RECOVERY_MS and only 2xx from then on.
 */
export async function assertOutageAndRestart(
  servers: FaultTarget[],
  key: string,
  cluster: { stop(): Promise<void>; start(): Promise<void> },
): Promise<Answer[]> {
  const running = load(servers, key, 6);
  await sleep(1500);
  const stopAt = Date.now();
  await cluster.stop();
  const stoppedAt = Date.now();
  await sleep(10_000 - (stoppedAt - stopAt));
  const healthDuring = await Promise.all(servers.map((s, i) => hit(s.baseUrl, "/api/v1/health", new Agent(), null, i)));
  const startingAt = Date.now();
  await cluster.start();
  const readyAt = Date.now();
  await sleep(9500);
  const answers = await running.stop();

  for (const s of servers) assert.equal(s.child.exitCode, null, `server still runs:\n${logTail(s)}`);
  for (const h of healthDuring) assert.equal(h.status, 503, "health is degraded while the database is down");
  assert.deepEqual(
    answers.filter((a) => a.status === 0).map((a) => a.error),
    [],
    "every call got an answer",
  );
  const during = answers.filter((a) => a.start >= stoppedAt && a.end <= startingAt);
  assert.ok(during.length > 20, `calls during the outage: ${during.length}`);
  for (const a of during) {
    assert.equal(a.status, 503, `during the outage: ${a.status} ${a.code}`);
    assert.equal(a.code, "data_source_unavailable");
    assert.ok(a.retryAfter, "Retry-After on 503");
  }
  // Calls made and answered while the database is down answer within the deadline. (Calls in flight while pg_ctl stops
  // or starts it also wait for that, seconds on a busy machine: seen, one made 11.2 s into the outage, still waiting
  // when the start began, answered 200 after 3.15 s; they must still get an answer, above. A call whose deadline passed
  // before the start began is held to it.) Calls made after it is back
  // answer within the deadline counted from the end of the recovery window at the latest: one made as the pool
  // reconnects may wait for that (seen: 3.1 s at load 8), within RECOVERY_MS.
  const countedFrom = (a: Answer) => (a.start >= readyAt ? Math.max(a.start, readyAt + RECOVERY_MS) : a.start);
  const dueBeforeStart = (x: Answer) => x.end <= startingAt || x.start + DEADLINE_MS + 1000 <= startingAt;
  for (const a of answers.filter((x) => x.start >= stoppedAt && (dueBeforeStart(x) || x.start >= readyAt)))
    assert.ok(
      a.end - countedFrom(a) <= DEADLINE_MS + 1000,
      `answered in ${a.end - a.start} ms (status ${a.status}), ${a.start - stoppedAt} ms into the outage`,
    );
  for (let i = 0; i < servers.length; i++) {
    const after = answers.filter((a) => a.server === i && a.start >= readyAt);
    const firstOk = after.find((a) => a.status === 200);
    assert.ok(firstOk, `server ${i} served 2xx after the restart`);
    assert.ok(firstOk.end - readyAt <= RECOVERY_MS, `server ${i} first 2xx ${firstOk.end - readyAt} ms after restart`);
    const late = after.filter((a) => a.start >= readyAt + RECOVERY_MS);
    assert.ok(late.length > 0);
    assert.deepEqual(
      late.filter((a) => a.status !== 200).map((a) => explain(a, readyAt, servers[i])),
      [],
      `server ${i} answers only 2xx from ${RECOVERY_MS} ms after the restart`,
    );
  }
  return answers;
}

/** Exactly one demo ticker holds its lock once a tick ran after a restart, and still one a tick later. */
export async function assertOneTicker(sql: postgres.Sql): Promise<void> {
  const holders = async () => {
    const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_locks
      where locktype = 'advisory' and classid = 0 and objid::bigint = ${DEMO_TICKER_LOCK} and granted`;
    return n;
  };
  let n = 0;
  for (let waited = 0; waited < 12_000 && n === 0; waited += 250) {
    n = await holders();
    if (n === 0) await sleep(250);
  }
  assert.equal(n, 1, "one ticker holds the lock after the restart");
  await sleep(5500);
  assert.equal(await holders(), 1, "still exactly one ticker a tick later");
}

/**
 * SIGTERM to `victim` under keep-alive load: it exits 0 within GRACE_MS, every call on an accepted connection is
 * answered (new connections are refused), calls on open connections are still answered after the signal, and the
 * shutdown steps ran.
 */
export async function assertSigtermDrain(victim: FaultTarget, key: string): Promise<Answer[]> {
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
  assert.equal(code, 0, victim.output());
  assert.ok(at - termAt <= GRACE_MS, `exited ${at - termAt} ms after SIGTERM`);
  const lost = answers.filter((a) => a.status === 0 && a.error !== "ECONNREFUSED");
  assert.deepEqual(lost, [], "no call lost");
  assert.ok(
    answers.some((a) => a.status === 200 && a.end > termAt),
    "calls on open connections were still answered after SIGTERM",
  );
  assert.match(victim.output(), /"msg":"stopped"/, "the shutdown steps ran");
  return answers;
}

/** Every 2xx in `seen` has its usage event. */
export async function assertMetered(sql: postgres.Sql, seen: Answer[]): Promise<void> {
  const ok = seen.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.requestId);
  assert.ok(ok.length > 100, `2xx answers: ${ok.length}`);
  const rows = await sql<{ request_id: string }[]>`
    select request_id from usage_events where request_id = any(${ok}) and status between 200 and 299`;
  const metered = new Set(rows.map((r) => r.request_id));
  assert.deepEqual(
    ok.filter((id) => !metered.has(id)),
    [],
    "unmetered 2xx",
  );
}

export interface FaultCluster {
  cluster: PgCluster;
  proxy: TcpProxy;
  /** Direct to the cluster, for set-up and checks. */
  database: Database;
  /** The servers' URL: through the proxy, so the test can also make the database unreachable. */
  viaProxy: string;
  /** The servers' environment for the fault checks. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A cluster of the test's own with a migrated, seeded database `faults` (and an empty `untouched`), behind a proxy. */
export async function startFaultCluster(): Promise<FaultCluster> {
  const cluster = await createPgCluster();
  const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
  await admin`create database faults`;
  await admin`create database untouched`;
  await admin.end();
  const database = openDatabase(cluster.url("faults"), { max: 4 });
  await runMigrations(database);
  await seedDemoMarket(database.db, { seed: "options-research-demo-v1", now: new Date() });
  const proxy = await startTcpProxy(cluster.port);
  return {
    cluster,
    proxy,
    database,
    viaProxy: `postgres://postgres@127.0.0.1:${proxy.port}/faults`,
    env: {
      DB_DEADLINE_MS: String(DEADLINE_MS),
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      DEMO_TICKER: "on",
      LOG_LEVEL: "info", // the shutdown's "stopped" line
    },
    async close() {
      await database.close().catch(() => {});
      await proxy.close();
      cluster.destroy();
    },
  };
}

/** Once the servers have seeded the plans: limits no load reaches, and a key to call with. */
export async function keyForLoad(database: Database): Promise<string> {
  await database.sql`update plans set a_per_minute = 1000000, a_per_month = 1000000000, b_per_minute = 1000000, b_per_day = 1000000000`;
  return (await accountWithKey(database.db)).key;
}
