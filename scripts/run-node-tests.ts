/**
 * Runs one test suite (tests/<suite>/**\/*.test.ts) with Node's built-in test runner and tsx as the loader.
 * Usage: tsx scripts/run-node-tests.ts unit|integration [file-filter]
 * Files run in parallel, each in its own process (integration files each on their own database): TEST_CONCURRENCY
 * files at a time, by default the suite's figure below, measured fastest on 2 cores (docs/testing.md); the database
 * fault files (SOLO) then run one at a time. Integration files share the run's template databases (fixtures/test-db.ts:
 * ORA_TEST_RUN_ID, ORA_TEST_RUN_AT), dropped when the run ends, passed or not.
 * Files start longest first (tests/<suite>/durations.json, from an earlier run; files it does not list first of all), so
 * a long file does not start last and run alone at the end; scripts/node-test-files.ts runs them in that order (the
 * `node --test` command line sorts them by name). TEST_DURATIONS=update rewrites that file from this run.
 * TEST_PHASE=shared or solo runs one of the two phases (`npm test` runs the unit suite beside the solo one).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { dropRunTemplates, newRunId } from "../fixtures/test-templates";

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

const durationsFile = join("tests", suite, "durations.json");
/** Seconds per file (paths relative to tests/) from an earlier run. */
const known: Record<string, number> = existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, "utf8")) : {};
const expected = (f: string) => known[relative("tests", f)] ?? Number.POSITIVE_INFINITY;
const files = findTests(join("tests", suite))
  .filter((f) => !filter || f.includes(filter))
  .sort((a, b) => expected(b) - expected(a) || (a < b ? -1 : a > b ? 1 : 0));
if (files.length === 0) {
  console.error(`no test files in tests/${suite}${filter ? ` matching ${filter}` : ""}`);
  process.exit(1);
}
console.log(`running ${files.length} ${suite} test file(s): ${files.map((f) => relative("tests", f)).join(", ")}`);
const DEFAULT_CONCURRENCY: Record<string, number> = { unit: 3, integration: 4 };
const concurrency = Number(process.env.TEST_CONCURRENCY ?? DEFAULT_CONCURRENCY[suite] ?? 2);
/**
 * Files whose assertions time a server through a database outage (a 2 s deadline, a 3 s recovery): run after the
 * others, SOLO_CONCURRENCY at a time, so the other files' load on 2 cores does not decide them (seen: a 2 s stall 7 s
 * after the restart while three other files ran). Two at a time passed three runs in a row, then failed once on a
 * slower machine: one at a time (docs/testing.md).
 */
const SOLO = /db-faults/;
const SOLO_CONCURRENCY = Number(process.env.SOLO_CONCURRENCY ?? 1);
/**
 * The operator CLI and the standalone API server, bundled once for the whole run (tests/helpers/bundles.ts): the
 * integration files start a few hundred of them, each about 1.5 s of CPU cheaper than through tsx.
 */
if (suite === "integration") {
  const built = spawnSync(process.execPath, ["scripts/build-api.mjs"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
  process.env.ORA_BUNDLES_DIR = "dist";
  process.env.ORA_TEST_RUN_AT = String(Date.now());
  process.env.ORA_TEST_RUN_ID = newRunId(Number(process.env.ORA_TEST_RUN_AT));
}
/** Set by SIGINT or SIGTERM (Ctrl-C reaches the files too): the runner outlives them to drop the run's templates. */
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => (interrupted = true));
const measured = mkdtempSync(join(tmpdir(), "ora-durations-"));
let batches = 0;
const run = (batch: string[], n: number) => {
  if (batch.length === 0) return 0;
  const out = join(measured, `${batches++}.json`);
  const args = ["--import", "tsx", "scripts/node-test-files.ts", String(n), out, ...batch];
  return spawnSync(process.execPath, args, { stdio: "inherit", env: process.env }).status ?? 1;
};
/** TEST_PHASE: "shared" runs only the files that run in parallel, "solo" only the SOLO ones; unset, both. */
const phase = process.env.TEST_PHASE ?? "both";
if (!["both", "shared", "solo"].includes(phase)) {
  console.error(`TEST_PHASE must be shared or solo, not ${phase}`);
  process.exit(2);
}
const shared =
  phase === "solo"
    ? 0
    : run(
        files.filter((f) => !SOLO.test(f)),
        concurrency,
      );
// spawnSync held the event loop: a signal that came meanwhile reaches its handler only once the loop polls again
// (a timer's turn does; setImmediate's came too early, tried 28 Nov 2026).
await new Promise((r) => setTimeout(r, 10));
const alone = interrupted
  ? 130
  : phase === "shared"
    ? 0
    : run(
        files.filter((f) => SOLO.test(f)),
        SOLO_CONCURRENCY,
      );
if (process.env.TEST_DURATIONS === "update") {
  const seconds = { ...known };
  for (const name of readdirSync(measured))
    for (const [file, ms] of Object.entries(JSON.parse(readFileSync(join(measured, name), "utf8")) as object))
      seconds[relative(resolve("tests"), file)] = Math.max(1, Math.round(Number(ms) / 1000));
  const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(durationsFile, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`wrote ${durationsFile}`);
}
rmSync(measured, { recursive: true, force: true });
const runId = process.env.ORA_TEST_RUN_ID;
if (suite === "integration" && runId) {
  const dropped = await dropRunTemplates(runId).catch((err) => {
    console.error(`could not drop the run's template databases: ${err}`);
    return [];
  });
  if (dropped.length) console.log(`dropped ${dropped.length} template database(s) of run ${runId}`);
}
process.exit(shared || alone);
