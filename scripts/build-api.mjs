// Bundles the API-only server into one ES module (dependencies stay in node_modules), so production runs plain Node:
// no TypeScript loader or transform service in the serving process.
import { build } from "esbuild";

await build({
  entryPoints: ["scripts/api-server.ts"],
  outfile: "dist/api-server.mjs",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
