// Removes optional-dependency edges the lock lists without a package entry (platform binaries this machine's registry
// does not serve), so `npm ci` accepts the lock. Run after `npm install` changes package-lock.json.
import { readFileSync, writeFileSync } from "node:fs";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
const entries = lock.packages;
const exists = (from, name) => {
  // Node resolution inside the lock: nested node_modules first, then each ancestor, then the root.
  let dir = from;
  for (;;) {
    if (entries[`${dir ? `${dir}/` : ""}node_modules/${name}`]) return true;
    if (!dir) return false;
    const cut = dir.lastIndexOf("/node_modules/");
    dir = cut === -1 ? "" : dir.slice(0, cut);
  }
};
let removed = 0;
for (const [path, pkg] of Object.entries(entries)) {
  for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
    if (!exists(path, name)) {
      delete pkg.optionalDependencies[name];
      removed++;
    }
  }
  if (pkg.optionalDependencies && Object.keys(pkg.optionalDependencies).length === 0) delete pkg.optionalDependencies;
}
writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
console.log(`prune-lock: removed ${removed} unresolvable optional edge(s)`);
