/**
 * Runs test files with node:test's `run()`, in the order given (the `node --test` command line sorts its files by
 * name): `node --import tsx scripts/node-test-files.ts <concurrency> <durations-out.json> <file>...`, from
 * scripts/run-node-tests.ts. Each file runs in its own process (which inherits `--import tsx`), `concurrency` at a time,
 * reported by the `spec` reporter as `node --test` reports them. When the run ends, each file's wall time in ms (the
 * runner's `test:complete` event for the file: its process from start to exit) is written to `durations-out.json`.
 * Exits 1 when a test or a file failed.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const [concurrency, durationsOut, ...files] = process.argv.slice(2);
const stream = run({ files: files.map((f) => resolve(f)), concurrency: Number(concurrency) });
const wallMs: Record<string, number> = {};
let failed = false;
// As `node --test`, which exits 0 when the only failures are of tests marked todo (checked 28 Nov 2026: a failing todo
// test exits 0 under both, a failing test 1).
stream.on("test:fail", (event: { todo?: string | boolean }) => {
  if (!event.todo) failed = true;
});
stream.on("test:complete", (event: { name: string; file?: string; details: { duration_ms: number } }) => {
  if (event.file && event.name === event.file) wallMs[event.file] = event.details.duration_ms;
});
const out = stream.compose(new spec());
out.pipe(process.stdout);
await new Promise((done) => out.on("end", done));
writeFileSync(durationsOut, JSON.stringify(wallMs));
process.exitCode = failed ? 1 : 0;
