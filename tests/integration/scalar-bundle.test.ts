/**
 * The postinstall fetch of Scalar's browser bundle (scripts/fetch-scalar.mjs): the pinned sha512 is checked before a
 * file is kept, and a good tarball leaves exactly the bundle and its package.json where /docs/scalar.js reads them.
 * Runs the script in a scratch project; npm's cache (filled by `npm ci`) answers without the network.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const pinned = JSON.parse(readFileSync("package.json", "utf8")).scalarBundle;

function runIn(integrity: string) {
  const dir = mkdtempSync(join(tmpdir(), "scalar-fetch-"));
  mkdirSync(join(dir, "scripts"));
  copyFileSync("scripts/fetch-scalar.mjs", join(dir, "scripts", "fetch-scalar.mjs"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ scalarBundle: { ...pinned, integrity } }));
  const r = spawnSync(process.execPath, ["scripts/fetch-scalar.mjs"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
  return {
    dir,
    status: r.status,
    out: r.stdout + r.stderr,
    target: join(dir, "node_modules", ".scalar", pinned.version),
  };
}

test("a tarball whose sha512 is not the pinned one is refused and nothing is kept", () => {
  const wrong = `sha512-${Buffer.alloc(64, 7).toString("base64")}`;
  const r = runIn(wrong);
  try {
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /is not the pinned sha512-/);
    assert.ok(!existsSync(r.target), "a bundle was kept");
  } finally {
    rmSync(r.dir, { recursive: true, force: true });
  }
});

test("the pinned tarball leaves the bundle and its package.json, the same bytes the app serves", () => {
  const r = runIn(pinned.integrity);
  try {
    assert.equal(r.status, 0, r.out);
    assert.deepEqual(readdirSync(r.target).sort(), ["package.json", "standalone.js"]);
    const meta = JSON.parse(readFileSync(join(r.target, "package.json"), "utf8"));
    assert.equal(meta.version, pinned.version);
    assert.equal(meta.license, "MIT");
    const installed = join("node_modules", ".scalar", pinned.version, "standalone.js");
    assert.ok(readFileSync(join(r.target, "standalone.js")).equals(readFileSync(installed)));
    // A second run finds it in place and does nothing.
    const again = spawnSync(process.execPath, ["scripts/fetch-scalar.mjs"], { cwd: r.dir, encoding: "utf8" });
    assert.equal(again.status, 0);
    assert.equal(again.stdout + again.stderr, "");
  } finally {
    rmSync(r.dir, { recursive: true, force: true });
  }
});
