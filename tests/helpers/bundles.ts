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

let dir: string | null = process.env.ORA_BUNDLES_DIR ?? null;

/** The path of a bundled entry point, to run as `node <path> …args`. */
export function bundled(name: "cli" | "api-server"): string {
  if (dir === null) {
    const r = spawnSync(process.execPath, ["scripts/build-api.mjs"], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`building the bundles failed:\n${r.stdout}${r.stderr}`);
    dir = "dist";
  }
  return join(dir, `${name}.mjs`);
}
