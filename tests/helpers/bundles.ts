/**
 * The operator CLI and the standalone API server as production runs them: one esbuild bundle each
 * (scripts/build-api.mjs: dist/cli.mjs, dist/api-server.mjs), started by plain Node. Through `npx tsx` a child costs
 * about 2 s of CPU before it runs a line of the product (npm's start-up, tsx's loader, the transform), through the
 * bundle about 0.5 s; the integration suite starts a few hundred of them. `scripts/run-node-tests.ts` builds the bundles
 * once per run and says where (ORA_BUNDLES_DIR); a test file run on its own builds them here, once per process.
 * `tests/integration/cli.test.ts` still runs `npm run -s cli` itself, as an operator types it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

/**
 * Builds the bundles and records where in ORA_BUNDLES_DIR, so that child processes started afterwards (Playwright's
 * workers after e2e/global-setup.ts) use them without building again. Returns the folder.
 */
export function buildBundles(): string {
  const r = spawnSync(process.execPath, ["scripts/build-api.mjs"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`building the bundles failed:\n${r.stdout}${r.stderr}`);
  process.env.ORA_BUNDLES_DIR = "dist";
  return "dist";
}

/** The path of a bundled entry point, to run as `node <path> …args`. */
export function bundled(name: "cli" | "api-server"): string {
  return join(process.env.ORA_BUNDLES_DIR ?? buildBundles(), `${name}.mjs`);
}
