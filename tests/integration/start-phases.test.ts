/**
 * `npm start` talks (scripts/start.ts, run with --no-serve against a test database): one line per phase with its time,
 * a line at least every 10 s, the key box last; the demo market built on the first start and brought up to date,
 * not rebuilt, on the second. The two starts' times are printed for docs/benchmark.md (a test never asserts speed).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";

interface Line {
  at: number;
  text: string;
}

async function startOnce(url: string, dataDir: string): Promise<{ lines: Line[]; ms: number; code: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", "--no-serve"], {
    env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, DEMO_ACCOUNT: "on", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Line[] = [];
  let partial = "";
  child.stdout.on("data", (c: Buffer) => {
    partial += c.toString("utf8");
    const parts = partial.split("\n");
    partial = parts.pop() ?? "";
    for (const text of parts) lines.push({ at: Date.now(), text });
  });
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c));
  const code = await new Promise<number>((r) => child.on("exit", (c) => r(c ?? 1)));
  assert.equal(code, 0, err);
  return { lines, ms: Date.now() - started, code };
}

const texts = (lines: Line[]) => lines.map((l) => l.text);

describe("npm start's progress", () => {
  let t: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), "ora-start-"));

  before(async () => {
    t = await createTestDatabase("start_phases");
  });
  after(async () => {
    await t?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("first start builds the demo market, the second brings it up to date; one line per phase, the key box last", async () => {
    const first = await startOnce(t.url, dataDir);
    const second = await startOnce(t.url, dataDir);
    console.log(`first start ${first.ms} ms, second start ${second.ms} ms (--no-serve: migrations, demo market)`);
    for (const [run, demo] of [
      [first, /^✓ demo market in \d+\.\d s, built/],
      [second, /^✓ demo market in \d+\.\d s, brought up to date from \d{4}-/],
    ] as const) {
      const out = texts(run.lines);
      assert.match(out[0], /^▸ migrations…$/);
      assert.ok(
        out.some((l) => /^✓ migrations in \d+\.\d s$/.test(l)),
        out.join("\n"),
      );
      assert.ok(
        out.some((l) => demo.test(l)),
        out.join("\n"),
      );
      // The key box is the last block: nothing follows its closing rule.
      const rules = out.flatMap((l, i) => (/^─{72}$/.test(l) ? [i] : []));
      assert.equal(rules.length, 2, out.join("\n"));
      assert.ok(
        out.slice(rules[1] + 1).every((l) => l.trim() === ""),
        "nothing after the key box",
      );
      assert.ok(out.slice(rules[0], rules[1]).some((l) => /Demo test key +svc_test_/.test(l)));
      const gaps = run.lines.map((l, i) => l.at - (i === 0 ? l.at : run.lines[i - 1].at));
      assert.ok(Math.max(...gaps) <= 10_000, `never silent for more than 10 s (longest ${Math.max(...gaps)} ms)`);
    }
    assert.ok(
      texts(first.lines).some((l) => /still working/.test(l)),
      "the first start's long phase says it is still working",
    );
  });
});
