/**
 * The embedded engine serves PGlite to several connections at once: every extended-protocol query must run as its own
 * statement with its own parameters, whatever the other connections are doing (see lib/db/embedded.ts).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../../lib/db/embedded";

let dir: string;
let engine: EmbeddedDatabase;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "orapi-embedded-"));
  engine = await startEmbeddedDatabase(join(dir, "pglite"));
});
after(async () => {
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("concurrent connections never run each other's statements or parameters", async () => {
  const clients = Array.from({ length: 6 }, () => postgres(engine.url, { max: 1, onnotice: () => {} }));
  try {
    const runs = clients.map((sql, c) =>
      Promise.all(
        Array.from({ length: 150 }, async (_, i) => {
          // A distinct statement text per connection, a large parameter so messages span several socket reads.
          const pad = "x".repeat(20_000 + c * 100);
          const [row] = await sql.unsafe(`select $1::int * ${c + 2} as v, length($2::text) as n, ${c} as c`, [i, pad]);
          assert.deepEqual([row.v, row.n, row.c], [i * (c + 2), pad.length, c]);
        }),
      ),
    );
    await Promise.all(runs);
    // Another connection's query sent during a transaction waits for it (one backend), then gets its own answer.
    let other: Promise<unknown> | undefined;
    await clients[0].begin(async (tx) => {
      await tx`create table t (v int)`;
      other = clients[1]`select 2 as two`.then(([r]) => assert.equal(r.two, 2));
      await tx`insert into t values (1)`;
    });
    await other;
    const [{ n }] = await clients[2]`select count(*)::int as n from t`;
    assert.equal(n, 1);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
});
