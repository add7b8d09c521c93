/**
 * The pool after lost connections (lib/db/renewing-pool.ts), on the shared server: a backend the server terminates
 * mid-statement does not fail the next statement with its old error, and connections whose first statement missed its
 * deadline while the database was down all serve again once it is back, and a transaction whose connection dies does
 * not take a guarded process down. The whole-process view (a stopped and
 * restarted cluster under load) is in db-faults.test.ts.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import postgres from "postgres";
import { openDatabase, withRequestDeadline, type Database } from "../../lib/db/client";
import { adminUrl } from "../helpers/test-db";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const outcome = (q: Promise<unknown>) =>
  q.then(
    () => "ok",
    (e: { code?: string }) => e.code ?? String(e),
  );

let admin: postgres.Sql;
let proxy: TcpProxy;

before(async () => {
  admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  proxy = await startTcpProxy(Number(new URL(adminUrl).port || 5432));
});
after(async () => {
  await admin.end();
  await proxy.close();
});

function urlFor(app: string, port?: number): string {
  const url = new URL(adminUrl);
  if (port) url.port = String(port);
  url.searchParams.set("application_name", app);
  return url.toString();
}

/** Terminates every backend of `app` once one of them runs a statement containing `running`. */
async function terminate(app: string, running: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [{ n }] = await admin<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where application_name = ${app} and query like ${`%${running}%`} and pid <> pg_backend_pid()`;
    if (n > 0) break;
    await sleep(20);
  }
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${app}`;
}

/** Terminates every backend of `app` while it runs a statement; answers how that statement ended. */
async function terminateMidStatement(sql: postgres.Sql, app: string): Promise<string> {
  const running = outcome(sql`select pg_sleep(5)`);
  await terminate(app, "pg_sleep(5)");
  return running;
}

test("a connection the server terminated mid-statement does not fail the next statement with the old error", async () => {
  // The driver on its own replays the terminated backend's 57P01 onto the next statement (porsager/postgres#1223);
  // if this first part fails, the driver no longer does, and lib/db/renewing-pool.ts is no longer needed for it.
  const bare = postgres(urlFor("pool-bare"), { max: 1, onnotice: () => {} });
  try {
    await bare`select 1`;
    assert.notEqual(await terminateMidStatement(bare, "pool-bare"), "ok");
    assert.equal(await outcome(bare`select 1`), "57P01", "the bare driver replays the old error");
  } finally {
    await bare.end();
  }

  const database = openDatabase(urlFor("pool-renewing"), { max: 1 });
  try {
    await database.sql`select 1`;
    assert.notEqual(await terminateMidStatement(database.sql, "pool-renewing"), "ok");
    assert.deepEqual(
      [
        await outcome(database.sql`select 1`),
        await outcome(database.db.execute("select 1")),
        await outcome(database.sql`select 1`),
      ],
      ["ok", "ok", "ok"],
    );
    // Its configuration survives the renewal: drizzle's identity parser for timestamps, arrays as parameters.
    const [row] = await database.sql<{ t: unknown; a: number[] }[]>`select now() as t, ${[1, 2]}::int[] as a`;
    assert.equal(typeof row.t, "string");
    assert.deepEqual(row.a, [1, 2]);
  } finally {
    await database.close();
  }
});

test("connections whose statements missed their deadline while the database was down all serve once it is back", async () => {
  const app = "pool-outage";
  const database: Database = openDatabase(urlFor(app, proxy.port), { max: 2, deadlineMs: 2000 });
  const guarded = withRequestDeadline(database, 300);
  try {
    await Promise.all([guarded.sql`select 1`, guarded.sql`select 1`]);
    proxy.refuse(); // open connections closed; reconnects accepted and closed without an error
    await sleep(100); // the pool has seen its connections close: the statements below each start a reconnect
    const during = await Promise.all([1, 2, 3, 4].map(() => outcome(guarded.sql`select 1`)));
    assert.ok(
      during.every((o) => o !== "ok"),
      `no statement succeeds while the database is down: ${during}`,
    );
    await sleep(500);
    proxy.restore();
    let first = "";
    for (let i = 0; i < 40 && first !== "ok"; i++) {
      first = await outcome(guarded.sql`select 1`);
      if (first !== "ok") await sleep(100);
    }
    assert.equal(first, "ok", "the pool serves again");
    await sleep(1200); // the renewal waits for its gap after the one at the first failure
    // Both connections take a statement at once: none is left out of the pool.
    const sleeping = Promise.all([
      outcome(database.sql`select pg_sleep(1)`),
      outcome(database.sql`select pg_sleep(1)`),
    ]);
    let active = 0;
    for (let i = 0; i < 40 && active < 2; i++) {
      await sleep(25);
      [{ n: active }] = await admin<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where application_name = ${app} and state = 'active' and query like '%pg_sleep(1)%'`;
    }
    assert.equal(active, 2, "both pooled connections run a statement at once");
    assert.deepEqual(await sleeping, ["ok", "ok"]);
  } finally {
    proxy.restore();
    await database.close();
  }
});

test("a transaction whose connection dies does not take the process down", async () => {
  // In a process of its own, guarded like the servers: the driver's rollback on the dead socket throws from a timer.
  const app = "pool-transaction";
  const code = `
    import { exitOnUnexpectedErrors } from "./lib/server/process-guard.ts";
    import { openDatabase } from "./lib/db/client.ts";
    exitOnUnexpectedErrors("probe");
    const database = openDatabase(${JSON.stringify(urlFor(app))}, { max: 2 });
    const tx = database.sql.begin((t) => t\`select pg_sleep(5)\`).then(() => "ok", (e) => e.code);
    process.stdout.write("running\\n");
    console.log("transaction", await tx);
    await new Promise((r) => setTimeout(r, 300));
    console.log("next", await database.sql\`select 1\`.then(() => "ok", (e) => e.code));
    await database.close();
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on("exit", r));
  for (let i = 0; i < 200 && !out.includes("running"); i++) await sleep(50);
  await terminate(app, "pg_sleep(5)");
  assert.equal(await exited, 0, out);
  assert.match(out, /transaction CONNECTION_CLOSED/);
  assert.match(out, /lost a connection in its own background work; ignored/, "the driver's leftover write happened");
  assert.match(out, /next ok/);
});
