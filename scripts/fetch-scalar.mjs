/**
 * postinstall: puts Scalar's self-contained browser bundle (`dist/browser/standalone.js` of @scalar/api-reference) at
 * node_modules/.scalar/<version>/, where /docs/scalar.js serves it.
 *
 * The bundle is the only file of Scalar the app uses, and it runs only in the browser. Installed as a dependency, the
 * package brings 120 packages of its own that declare Node 22 (125 lines of EBADENGINE warnings on Node 20) and that
 * nothing here runs. So `npm pack` fetches the one tarball (from the registry, or npm's cache when offline), its sha512
 * is checked against the integrity pinned in package.json (`scalarBundle`), and two files are kept: the bundle and
 * its package.json (its version and MIT licence; the tarball has no LICENSE file).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = process.cwd();
const { scalarBundle } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const { version, integrity } = scalarBundle;
const dir = join(root, "node_modules", ".scalar", version);
const bundle = join(dir, "standalone.js");

if (existsSync(bundle)) process.exit(0);

const work = mkdtempSync(join(tmpdir(), "scalar-"));
try {
  const tarball = pack();
  const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
  if (actual === integrity) install(tarball);
  else {
    console.error(
      `@scalar/api-reference@${version}: integrity ${actual} is not the pinned ${integrity}; not installed`,
    );
    process.exitCode = 1;
  }
} catch (err) {
  // Offline with an empty cache: the product works, /docs shows its "could not load" state until this runs again.
  console.error(
    `could not fetch @scalar/api-reference@${version} (${err instanceof Error ? err.message.split("\n")[0] : err}); ` +
      "the API reference page needs it: run `npm run postinstall` once the registry is reachable",
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** The package's tarball, from the registry or npm's cache (npm checks it against the registry's integrity too). */
function pack() {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const [packed] = JSON.parse(
    execFileSync(npm, ["pack", `@scalar/api-reference@${version}`, "--json", "--pack-destination", work], {
      cwd: work,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  return join(work, packed.filename);
}

/** Keeps the bundle and the package's package.json, staged beside their place and renamed: never half a bundle. */
function install(tarball) {
  execFileSync("tar", ["-xzf", tarball, "-C", work, "package/dist/browser/standalone.js", "package/package.json"]);
  const staged = `${dir}.${process.pid}`;
  mkdirSync(staged, { recursive: true });
  copyFileSync(join(work, "package", "dist", "browser", "standalone.js"), join(staged, "standalone.js"));
  copyFileSync(join(work, "package", "package.json"), join(staged, "package.json"));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staged, dir);
  console.log(`@scalar/api-reference@${version} browser bundle: ${join("node_modules", ".scalar", version)}`);
}
