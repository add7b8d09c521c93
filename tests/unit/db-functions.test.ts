/**
 * Stored functions have one source (db/functions/*.sql): the latest migration that defines each function carries the
 * file's CREATE … FUNCTION statement verbatim, so what the database runs is what a reader opens. Every function any
 * migration defines has a source file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const FUNCTIONS = "db/functions";
const MIGRATIONS = "db/migrations";
const definition = (text: string, name: string) =>
  new RegExp(`CREATE (OR REPLACE )?FUNCTION "${name}"\\(.*?\\$\\$;`, "s").exec(text)?.[0] ?? null;
const normalise = (sql: string) =>
  sql.replaceAll("--> statement-breakpoint", "").replace(/^CREATE FUNCTION/, "CREATE OR REPLACE FUNCTION");

const migrations = readdirSync(MIGRATIONS)
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .map((f) => ({ file: f, text: readFileSync(join(MIGRATIONS, f), "utf8") }));
const sources = readdirSync(FUNCTIONS).filter((f) => f.endsWith(".sql"));

test("each db/functions file is what the latest migration defining it applies", () => {
  assert.ok(sources.includes("admit_batch.sql"));
  for (const source of sources) {
    const name = source.replace(/\.sql$/, "");
    const body = definition(readFileSync(join(FUNCTIONS, source), "utf8"), name);
    assert.ok(body, `${source} holds a CREATE FUNCTION "${name}" statement`);
    const latest = migrations.filter((m) => definition(m.text, name)).at(-1);
    assert.ok(latest, `a migration applies ${source}`);
    assert.equal(
      normalise(definition(latest.text, name) ?? ""),
      normalise(body),
      `${latest.file} applies ${source} verbatim`,
    );
  }
});

test("every function a migration defines has its source file", () => {
  const defined = new Set(
    migrations.flatMap((m) => [...m.text.matchAll(/CREATE (?:OR REPLACE )?FUNCTION "(\w+)"/g)].map((x) => x[1])),
  );
  for (const name of defined) assert.ok(sources.includes(`${name}.sql`), `db/functions/${name}.sql`);
});
