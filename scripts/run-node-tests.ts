/**
 * Runs one test suite (tests/<suite>/**\/*.test.ts) with Node's built-in test runner and tsx as the loader.
 * Usage: tsx scripts/run-node-tests.ts unit|integration [file-filter]
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const suite = process.argv[2];
const filter = process.argv[3];
if (!suite) {
  console.error("usage: run-node-tests.ts <suite> [filter]");
  process.exit(2);
}

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

const files = findTests(join("tests", suite))
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no test files in tests/${suite}${filter ? ` matching ${filter}` : ""}`);
  process.exit(1);
}
console.log(`running ${files.length} ${suite} test file(s): ${files.map((f) => relative("tests", f)).join(", ")}`);
const concurrency = suite === "unit" ? [] : ["--test-concurrency=1"];
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-reporter=spec", ...concurrency, ...files],
  { stdio: "inherit", env: process.env },
);
process.exit(result.status ?? 1);
