/**
 * Whether the Next app must be built before `next start`: no `.next/BUILD_ID`, or a source newer than it. One rule for
 * `npm start` (scripts/start.ts) and the tests that serve the built app.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "db/schema",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "package-lock.json",
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return readdirSync(path, { withFileTypes: true }).reduce((m, e) => {
    const p = join(path, e.name);
    return Math.max(m, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }, 0);
}

export function nextNeedsBuild(root = "."): boolean {
  const buildId = join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((p) => newestMtime(join(root, p)) > built);
}
