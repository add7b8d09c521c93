/**
 * `npm run lint:openapi`: the API reference as served (built from the route table) written to a temp file, then linted
 * by the tools API consumers run: Redocly CLI (`recommended`) and Spectral (`spectral:oas`). Any error or warning fails.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOpenApi } from "../lib/api/openapi";
import { allRoutes } from "../lib/api/routes";

const dir = mkdtempSync(join(tmpdir(), "ora-openapi-"));
const file = join(dir, "openapi.json");
const spectralRules = join(dir, ".spectral.json");
writeFileSync(file, JSON.stringify(buildOpenApi(allRoutes), null, 2));
writeFileSync(spectralRules, JSON.stringify({ extends: ["spectral:oas"] }));
const run = (command: string, args: string[]) =>
  execFileSync(join("node_modules", ".bin", command), args, {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
let failed = false;
try {
  try {
    run("redocly", ["lint", "--extends=recommended", "--max-problems=200", file]);
  } catch {
    failed = true;
  }
  try {
    run("spectral", ["lint", "--ruleset", spectralRules, "--fail-severity=warn", file]);
  } catch {
    failed = true;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  console.error("openapi lint: the reference has errors or warnings (see above)");
  process.exit(1);
}
