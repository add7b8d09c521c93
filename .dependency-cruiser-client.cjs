// The browser-bundle rule, checked on the runtime import graph (type-only imports are erased before bundling, so a
// "use client" file may name a domain type but must not reach a module that holds code for the server).
const base = require("./.dependency-cruiser.cjs");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = __dirname;
const SOURCE_DIRS = ["app", "components", "lib"];
const SKIP = new Set(["node_modules", ".next", "dist", ".data"]);

// dependency-cruiser cannot read directives, so the "use client" files are listed here when the config loads:
// any .ts/.tsx file whose first statement is the directive. The rule below checks everything they reach.
function listUseClientFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|tsx)$/.test(entry.name) && isUseClient(path.join(ROOT, rel))) found.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(ROOT, dir))) walk(dir);
  return found;
}

function isUseClient(file) {
  const head = fs.readFileSync(file, "utf8").slice(0, 2000);
  // Skip leading comments and blank lines; the directive must be the first statement.
  const body = head.replace(/^(?:\s+|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*/, "");
  return /^["']use client["']/.test(body);
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const clientFiles = listUseClientFiles();
const CLIENT_PATTERN = clientFiles.length > 0 ? `^(${clientFiles.map(escapeRegExp).join("|")})$` : "^$a";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "client-not-server",
      comment: '"use client" files reach no database, domain or server module at run time.',
      severity: "error",
      from: { path: CLIENT_PATTERN },
      to: { path: "^(lib/(db|domain|server)|db)/", reachable: true },
    },
  ],
  options: { ...base.options, tsPreCompilationDeps: false },
};
