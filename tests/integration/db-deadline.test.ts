/** The request path's deadline on database waits (lib/db/deadline.ts), against a link the test cuts. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openDatabase, withRequestDeadline, type Database } from "../../lib/db/client";
import { DeadlineError } from "../../lib/db/deadline";
import { adminUrl } from "../helpers/test-db";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";

let proxy: TcpProxy;
let pool: Database;
let guarded: Database;

before(async () => {
  const target = new URL(adminUrl);
  proxy = await startTcpProxy(Number(target.port || 5432));
  target.port = String(proxy.port);
  pool = openDatabase(target.toString(), { max: 2, deadlineMs: 500 });
  guarded = withRequestDeadline(pool, 300);
  await guarded.sql`select 1`;
});
after(async () => {
  proxy.restore();
  await pool.close();
  await proxy.close();
});

test("a statement, a drizzle query and a transaction reject at the deadline while the database is unreachable", async () => {
  proxy.cut();
  try {
    for (const wait of [
      () => guarded.sql`select 1`,
      () => guarded.db.execute("select 1"),
      () => guarded.db.transaction(async (tx) => tx.execute("select 1")),
    ]) {
      const t0 = Date.now();
      await assert.rejects(
        wait(),
        (err) => err instanceof DeadlineError || (err as Error).cause instanceof DeadlineError,
      );
      const ms = Date.now() - t0;
      assert.ok(ms >= 250 && ms < 1500, `rejected after ${ms} ms`);
    }
  } finally {
    proxy.restore();
  }
});

test("once the link is back the same pool answers again", async () => {
  const t0 = Date.now();
  for (;;) {
    const ok = await guarded.sql`select 1 as one`.then(
      (r) => r[0].one === 1,
      () => false,
    );
    if (ok) break;
    assert.ok(Date.now() - t0 < 3000, "answers within 3 s");
  }
});

test("a fragment inside another statement is not armed on its own", async () => {
  const rows = await guarded.sql`select ${guarded.sql`1`}::int as one`;
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(rows[0].one, 1);
});
