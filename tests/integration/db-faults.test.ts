/**
 * Database faults on a cluster of the test's own (never the shared server): a 10 s outage answers every call 503
 * within DB_DEADLINE_MS + 1 s, an unreachable database likewise, every process serves 2xx within 3 s of the database
 * returning, every 2xx the client saw is metered, one process ticks the demo market after a restart, SIGTERM under
 * keep-alive load answers every call and exits 0 within SHUTDOWN_GRACE_MS, and a taken port is one line before any
 * migration. Operations behaviour: docs/reliability.md.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import { spawn } from "node:child_process";
import postgres from "postgres";
import { clusterUnavailableReason, type PgCluster } from "../helpers/pg-cluster";
import type { TcpProxy } from "../helpers/tcp-proxy";
import { startApiServer, type RunningServer, freePort } from "../helpers/api-server";
import {
  type Answer,
  assertMetered,
  assertOneTicker,
  assertOutageAndRestart,
  assertSigtermDrain,
  DEADLINE_MS,
  explain,
  type FaultCluster,
  keyForLoad,
  load,
  startFaultCluster,
  RECOVERY_MS,
  sleep,
} from "../helpers/fault-load";
import type { Database } from "../../lib/db/client";

const skip = clusterUnavailableReason();

describe("database faults", { skip: skip ?? false }, () => {
  let faults: FaultCluster;
  let cluster: PgCluster;
  let proxy: TcpProxy;
  let database: Database; // direct, for setup and checks
  let servers: RunningServer[] = [];
  let key: string;
  const seen: Answer[] = []; // every answer of the suite, for the metering check

  before(async () => {
    faults = await startFaultCluster();
    ({ cluster, proxy, database } = faults);
    servers = await Promise.all([
      startApiServer(faults.viaProxy, faults.env),
      startApiServer(faults.viaProxy, faults.env),
    ]);
    key = await keyForLoad(database);
  });

  after(async () => {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill("SIGKILL");
    await faults?.close();
  });

  for (const [server, script, portVar] of [
    ["npm run start:api", "scripts/api-server.ts", "API_PORT"],
    ["npm start", "scripts/start.ts", "PORT"],
  ]) {
    it(`${server}: a taken port is one log line and exit 1, before any migration runs`, async () => {
      const port = await freePort();
      const blocker: Server = createServer();
      await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", r));
      try {
        const child = spawn(process.execPath, ["--import", "tsx", script], {
          env: { ...process.env, DATABASE_URL: cluster.url("untouched"), [portVar]: String(port), HOST: "127.0.0.1" },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        const code = await new Promise<number | null>((r) => child.on("exit", (c) => r(c)));
        assert.equal(code, 1);
        const lines = out.trim().split("\n");
        assert.equal(lines.length, 1, out);
        assert.match(lines[0], /cannot listen on .*: address already in use/);
        const untouched = postgres(cluster.url("untouched"), { max: 1, onnotice: () => {} });
        const [{ n }] =
          await untouched`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`;
        await untouched.end();
        assert.equal(n, 0, "no migration ran");
      } finally {
        blocker.close();
      }
    });
  }

  it("a 10 s outage answers 503 within the deadline; after restart every process serves 2xx within 3 s; one ticker", async () => {
    seen.push(...(await assertOutageAndRestart(servers, key, cluster)));
    await assertOneTicker(database.sql);
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
      const late = answers.filter((a) => a.server === i && a.start >= restoredAt + RECOVERY_MS);
      assert.ok(late.length > 0);
      assert.deepEqual(
        late.filter((a) => a.status !== 200).map((a) => explain(a, restoredAt, servers[i])),
        [],
        `server ${i} answers 2xx from 3 s after the database is reachable`,
      );
    }
  });

  it("SIGTERM under keep-alive load answers every call and exits 0 within SHUTDOWN_GRACE_MS", async () => {
    seen.push(...(await assertSigtermDrain(servers[0], key)));
  });

  it("every 2xx the clients saw is metered", async () => {
    await assertMetered(database.sql, seen);
  });
});
