/**
 * The layout documents itself (issue 27): every lib/ folder is named by a layer rule in .dependency-cruiser.cjs and in
 * the README's Layout section, every rule of both configs is named there, and every file path docs/architecture.md
 * names exists.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
type Rule = { name: string; from: { path?: string }; to: { path?: string } };
const rules = (file: string) => (require(join(process.cwd(), file)) as { forbidden: Rule[] }).forbidden;
const layerRules = rules(".dependency-cruiser.cjs");
const allRules = [...layerRules, ...rules(".dependency-cruiser-client.cjs")];
const libFolders = readdirSync("lib").filter((f) => statSync(join("lib", f)).isDirectory());

const readme = readFileSync("README.md", "utf8");
const layout = readme.slice(readme.indexOf("## Layout"), readme.indexOf("\n## ", readme.indexOf("## Layout") + 3));

/** The folder names a rule's path patterns spell out, e.g. ^lib/(engine|market)/ → engine, market. */
function namedFolders(pattern: string | undefined): string[] {
  const names: string[] = [];
  for (const m of (pattern ?? "").matchAll(/lib\/\(\??!?([a-z|]+)\)|lib\/([a-z]+)\//g))
    names.push(...(m[1] ?? m[2]).split("|"));
  return names;
}

test("every lib/ folder is named by a layer rule", () => {
  const named = new Set(layerRules.flatMap((r) => [...namedFolders(r.from.path), ...namedFolders(r.to.path)]));
  assert.deepEqual(
    libFolders.filter((f) => !named.has(f)),
    [],
    "folders no rule of .dependency-cruiser.cjs names",
  );
});

test("the README's Layout names every lib/ folder and every rule", () => {
  assert.ok(layout.length > 100, "README has a Layout section");
  assert.deepEqual(
    libFolders.filter((f) => !layout.includes(`lib/${f}`)),
    [],
    "lib/ folders the README's Layout does not name",
  );
  assert.deepEqual(
    allRules.map((r) => r.name).filter((name) => !layout.includes(`\`${name}\``)),
    [],
    "rules the README's Layout does not name",
  );
});

test("docs/architecture.md names only files that exist", () => {
  const text = readFileSync("docs/architecture.md", "utf8");
  const paths = [
    ...text.matchAll(/\b(?:lib|app|components|scripts|db|bench|tests)\/[\w./[\]-]+\.(?:tsx?|sql|cjs|mjs)\b/g),
  ];
  assert.ok(paths.length > 5);
  assert.deepEqual(
    paths.map((m) => m[0]).filter((p) => !existsSync(p)),
    [],
  );
});
