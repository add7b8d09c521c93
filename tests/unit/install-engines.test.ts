/**
 * `npm ci` on the Node this runs on prints no EBADENGINE warning: every package in the lock admits it (issue 28; the
 * README promises Node 20+, and CI runs Node 20). Scalar's API reference, whose packages declare Node 22, is not a
 * dependency: its browser bundle is fetched by the postinstall script (scripts/fetch-scalar.mjs, docs/operations.md).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import semver from "semver";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
};
const pkg = JSON.parse(readFileSync("package.json", "utf8"));

test("every locked package's engines admit this Node (no EBADENGINE on npm ci)", () => {
  const refused = Object.entries(lock.packages)
    .map(([path, p]) => ({ path, range: !Array.isArray(p.engines) ? p.engines?.node : undefined }))
    .filter((p) => p.range && !semver.satisfies(process.version, p.range))
    .map((p) => `${p.path} (node ${p.range})`);
  assert.deepEqual(refused, [], `packages that declare another Node than ${process.version}`);
});

test("Scalar is pinned by version and sha512 for the postinstall fetch, and is not a dependency", () => {
  assert.match(pkg.scalarBundle.version, /^\d+\.\d+\.\d+$/);
  assert.match(pkg.scalarBundle.integrity, /^sha512-[A-Za-z0-9+/]{86}==$/);
  assert.equal(pkg.scripts.postinstall, "node scripts/fetch-scalar.mjs");
  assert.ok(!Object.keys(lock.packages).some((p) => p.includes("@scalar/")), "a @scalar package is in the lock");
});
