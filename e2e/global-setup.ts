/**
 * Once per Playwright run, before any spec: bundles the operator CLI (scripts/build-api.mjs, a fraction of a second),
 * so the specs' CLI calls (tests/helpers/e2e-cli.ts) run plain Node, about 1.5 s of CPU cheaper each than `npx tsx`.
 * The workers inherit ORA_BUNDLES_DIR, so none of them builds (or races another building) the same files.
 */
import { buildBundles } from "../tests/helpers/bundles";

export default function globalSetup(): void {
  buildBundles();
}
