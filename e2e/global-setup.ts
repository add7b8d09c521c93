/**
 * Once per Playwright run, before any spec: bundles the operator CLI (scripts/build-api.mjs, a fraction of a second),
 * so the specs' CLI calls (tests/helpers/e2e-cli.ts) run plain Node, about 1.5 s of CPU cheaper each than `npx tsx`.
 * The workers inherit ORA_BUNDLES_DIR, so none of them builds (or races another building) the same files.
 */
import { spawnSync } from "node:child_process";

export default function globalSetup(): void {
  const built = spawnSync(process.execPath, ["scripts/build-api.mjs"], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("building the CLI bundle (scripts/build-api.mjs) failed");
  process.env.ORA_BUNDLES_DIR = "dist";
}
