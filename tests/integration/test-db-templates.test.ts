/**
 * The test databases copied from a run's templates (fixtures/test-db.ts) hold what the direct path writes: a copy of
 * the migrated template has the schema and rows of a database created and migrated on its own, and a copy of a seeded
 * template brought to `now` by advanceDemoMarket has, table by table, the rows of createTestDatabase then
 * seedDemoMarket at `now` (md5 of each table's rows in order), for a `now` in a session, across a close into the night
 * session, in a weekend night, and the wall clock; with its ATM-IV cache filled (the default), the rows of that seed
 * followed by the engine's first load, which fills it; and it keeps the seed's planner statistics. Run on its own (no
 * runner), the file makes a run of its own and drops its templates.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  cloneSeeded,
  createSeededTestDatabase,
  createTestDatabase,
  dropRunTemplates,
  newRunId,
  seededReference,
  templateRun,
  type TemplateRun,
  type TestDatabase,
} from "../helpers/test-db";
import { seedDemoMarket } from "../../lib/market/demo-market-writer";
import { loadMarketInput } from "../../lib/engine/load";

const SEED = "options-research-demo-v1";
const MIN = 60_000;

/** md5 of every row of every table (in text order), and of the schema: columns, indexes, constraints. */
async function fingerprint(t: TestDatabase): Promise<Record<string, string>> {
  const tables = await t.sql<{ name: string }[]>`
    select tablename as name from pg_tables where schemaname = 'public' order by 1`;
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    // The data version's time is when it was written, and a cached IV's when it was solved: the values are compared.
    const rows =
      name === "market_data_versions"
        ? "(select env, version, base_version from market_data_versions)"
        : name === "iv_history"
          ? "(select env, symbol, date, atm_iv_30 from iv_history)"
          : name;
    const [r] = await t.sql.unsafe<{ md5: string; n: string }[]>(
      `select md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as md5, count(*)::text as n from ${rows} x`,
    );
    out[name] = `${r.n} rows ${r.md5}`;
  }
  const [schema] = await t.sql<{ md5: string }[]>`
    select md5(string_agg(d, E'\n' order by d)) as md5 from (
      select format('%s.%s %s %s %s', table_name, column_name, data_type, is_nullable, column_default) as d
        from information_schema.columns where table_schema = 'public'
      union all select indexdef from pg_indexes where schemaname = 'public'
      union all select conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) from pg_constraint
        where connamespace = 'public'::regnamespace) s`;
  out["(schema)"] = schema.md5;
  return out;
}

describe("test databases from templates", () => {
  let run: TemplateRun;
  let own = false;
  before(() => {
    const current = templateRun();
    if (current) run = current;
    else {
      own = true;
      run = { id: newRunId(), at: Date.now() };
      process.env.ORA_TEST_RUN_ID = run.id;
      process.env.ORA_TEST_RUN_AT = String(run.at);
    }
  });
  after(async () => {
    if (own) await dropRunTemplates(run.id);
  });

  /**
   * A direct seed at `now` on a database created and migrated on its own (then, for a filled cache, the engine's
   * first load), against a template's copy.
   */
  async function compare(
    label: string,
    copy: () => Promise<TestDatabase>,
    now: number,
    ivHistory: "filled" | "empty",
  ): Promise<void> {
    const direct = await createTestDatabase(`${label}d`, { fromTemplate: false });
    const cloned = await copy();
    try {
      await seedDemoMarket(direct.db, { seed: SEED, now });
      if (ivHistory === "filled") await loadMarketInput(direct.db, "demo");
      const [want, got] = await Promise.all([fingerprint(direct), fingerprint(cloned)]);
      assert.ok(Number.parseInt(want.option_quotes, 10) > 0, "the direct seed wrote chains");
      const cached = Number.parseInt(want.iv_history, 10);
      assert.ok(ivHistory === "filled" ? cached > 1000 : cached === 0, `iv_history: ${want.iv_history}`);
      assert.deepEqual(got, want);
    } finally {
      await Promise.all([direct.drop(), cloned.drop()]);
    }
  }

  it("a copy of the migrated template equals a database migrated on its own", async () => {
    const direct = await createTestDatabase("tplmigd", { fromTemplate: false });
    const copy = await createTestDatabase("tplmig");
    try {
      assert.deepEqual(await fingerprint(copy), await fingerprint(direct));
    } finally {
      await Promise.all([direct.drop(), copy.drop()]);
    }
  });

  // Each solve of the cache costs about 20 s of CPU: the cases that need one (an advance across a close makes a day
  // history, which the copy then solves) are filled, the others show the empty path.
  for (const [what, reference, now, ivHistory] of [
    ["in a session", "2026-11-18T15:00:00.000Z", "2026-11-18T15:07:31.250Z", "empty"],
    ["across the close into the night session", "2026-11-18T20:52:10.000Z", "2026-11-18T21:06:40.500Z", "filled"],
    ["in a weekend night", "2026-11-21T09:00:00.000Z", "2026-11-21T09:13:05.000Z", "empty"],
  ] as const) {
    it(`a seeded template advanced to now equals a seed at now: ${what}, ATM-IV cache ${ivHistory}`, async () => {
      await compare(
        "tplseed",
        () =>
          cloneSeeded(run, "tplseed", {
            seed: SEED,
            now: +new Date(now),
            reference: +new Date(reference),
            ivHistory,
          }),
        +new Date(now),
        ivHistory,
      );
    });
  }

  it("createSeededTestDatabase at the wall clock equals a seed at the same instant and its first load", async () => {
    const now = Date.now();
    assert.ok(seededReference(now, run.at) <= now);
    await compare("tplwall", () => createSeededTestDatabase("tplwall", { seed: SEED, now }), now, "filled");
  });

  it("a seed with history is only for a fixed instant before the run (its copies are not advanced)", async () => {
    await assert.rejects(
      createSeededTestDatabase("tplhist", { seed: SEED, now: Date.now() + 60_000, history: true }),
      /fixed instant before the run/,
    );
    await assert.rejects(
      createSeededTestDatabase("tplhist", { seed: SEED, now: run.at - 86_400_000, history: true, ivHistory: "empty" }),
      /fills the ATM-IV cache/,
    );
  });

  it("a copy keeps the seed's planner statistics (ANALYZE in the template)", async () => {
    const t = await createSeededTestDatabase("tplstats", { seed: SEED, now: Date.now() });
    try {
      for (const table of ["option_quotes", "option_trades", "bars"]) {
        const [r] = await t.sql<{ reltuples: number; stats: boolean }[]>`
          select c.reltuples::float8 as reltuples,
            exists (select 1 from pg_stats s where s.schemaname = 'public' and s.tablename = ${table}) as stats
          from pg_class c where c.oid = ${`public.${table}`}::regclass`;
        assert.ok(r.reltuples > 0, `${table}: reltuples ${r.reltuples}`);
        assert.ok(r.stats, `${table}: no pg_stats rows`);
      }
    } finally {
      await t.drop();
    }
  });
});
