/**
 * usage_events partitioned by UTC day. The migration converts the table keeping its rows; maintenance creates
 * partitions ahead, moves rows the default partition caught, and drops whole days past the retention; a reader's
 * created_at range touches only its days; account_id and key_id are in every unique key.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import postgres from "postgres";
import { openDatabase, type Database } from "../../lib/db/client";
import { migrationsFolder, runMigrations } from "../../lib/db/migrate";
import { DAYS_AHEAD, maintainUsagePartitions, partitionName } from "../../lib/api/usage-partitions";
import { adminUrl } from "../helpers/test-db";

const DAY = 86_400_000;
const today = new Date(Math.floor(Date.now() / DAY) * DAY);
const dayOffset = (n: number) => new Date(today.getTime() + n * DAY);
let name: string;
let database: Database;

/** The committed migrations before this one, in a folder of their own. */
function foldersBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), "mig-"));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8"));
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(tag)),
  );
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const partitions = async () =>
  (
    await database.sql`
  select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'usage_events'::regclass order by 1`
  ).map((r) => r.relname as string);

describe("usage_events partitioned by day", () => {
  before(async () => {
    name = `orapi_usagepart_${randomBytes(4).toString("hex")}`;
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    database = openDatabase(url.toString());
  });
  after(async () => {
    await database?.close();
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("the migration converts the table and keeps every row, id and sequence", async () => {
    const dir = foldersBefore("usage_events_partitioned");
    try {
      await runMigrations(database, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const account = randomUUID();
    for (const [i, at] of [dayOffset(-120), dayOffset(-3), dayOffset(0), dayOffset(0)].entries()) {
      await database.sql`insert into usage_events (request_id, key_id, account_id, endpoint_id, status, latency_ms, created_at)
        values (${`old-${i}`}, 'k1', ${account}, 'e', 200, 1, ${at.toISOString()}::timestamptz)`;
    }
    const before = await database.sql`select id::int, request_id, created_at from usage_events order by id`;
    await runMigrations(database);
    const [{ partitioned }] =
      await database.sql`select exists (select 1 from pg_partitioned_table where partrelid = 'usage_events'::regclass) as partitioned`;
    assert.equal(partitioned, true);
    assert.deepEqual(await database.sql`select id::int, request_id, created_at from usage_events order by id`, before);
    const names = await partitions();
    for (const n of [-120, -3, 0, DAYS_AHEAD])
      assert.ok(names.includes(partitionName(dayOffset(n))), `partition for day ${n}`);
    const [{ n: inDefault }] = await database.sql`select count(*)::int as n from usage_events_default`;
    assert.equal(inDefault, 0);
    const [row] =
      await database.sql`insert into usage_events (request_id, key_id, account_id, endpoint_id, status, latency_ms)
      values ('new', 'k1', ${account}, 'e', 200, 1) returning id::int`;
    assert.equal(row.id, before.at(-1)!.id + 1, "the id sequence carries on");
  });

  it("every unique key of usage_events holds account_id and key_id", async () => {
    const keys = await database.sql`
      select i.indexrelid::regclass::text as name, array(select a.attname from pg_attribute a where a.attrelid = i.indrelid and a.attnum = any(i.indkey))::text[] as cols
      from pg_index i where i.indrelid = 'usage_events'::regclass and i.indisunique`;
    assert.ok(keys.length >= 1);
    for (const k of keys) assert.ok(k.cols.includes("account_id") && k.cols.includes("key_id"), `${k.name}: ${k.cols}`);
  });

  it("a created_at range reads only its day's partition", async () => {
    const plan = (
      await database.sql`explain select count(*) from usage_events
      where key_id = 'k1' and created_at >= ${dayOffset(-3).toISOString()}::timestamptz and created_at < ${dayOffset(-2).toISOString()}::timestamptz`
    )
      .map((r) => r["QUERY PLAN"] as string)
      .join("\n");
    assert.match(plan, new RegExp(partitionName(dayOffset(-3))));
    assert.doesNotMatch(plan, new RegExp(partitionName(dayOffset(0))));
    assert.doesNotMatch(plan, /usage_events_default/);
  });

  it("maintenance creates partitions ahead, moves caught rows, and drops whole days past retention", async () => {
    const account = randomUUID();
    // Beyond the partitions made so far: the default partition catches it.
    await database.sql`insert into usage_events (request_id, key_id, account_id, endpoint_id, status, latency_ms, created_at)
      values ('future', 'k1', ${account}, 'e', 200, 1, ${dayOffset(DAYS_AHEAD + 3).toISOString()}::timestamptz)`;
    assert.equal((await database.sql`select count(*)::int as n from usage_events_default`)[0].n, 1);
    const r = await maintainUsagePartitions(database.sql, 90, dayOffset(5));
    assert.deepEqual(
      r.created,
      [1, 2, 3, 4, 5].map((d) => partitionName(dayOffset(DAYS_AHEAD + d))),
    );
    // The migration made one partition per day since the oldest row: days before (day 5 − 90) go, day −85 stays.
    assert.deepEqual(
      r.dropped.sort(),
      Array.from({ length: 35 }, (_, i) => partitionName(dayOffset(-120 + i))),
    );
    assert.ok((await partitions()).includes(partitionName(dayOffset(-85))));
    assert.equal((await database.sql`select count(*)::int as n from usage_events_default`)[0].n, 0);
    const [moved] =
      await database.sql`select tableoid::regclass::text as part from usage_events where request_id = 'future'`;
    assert.equal(moved.part, partitionName(dayOffset(DAYS_AHEAD + 3)));
    assert.equal(
      (await database.sql`select count(*)::int as n from usage_events where request_id like 'old-%'`)[0].n,
      3,
      "the 120-day-old row went with its partition",
    );
    const again = await maintainUsagePartitions(database.sql, 90, dayOffset(5));
    assert.deepEqual(again, { created: [], dropped: [] }, "a second pass has nothing to do");
  });
});
