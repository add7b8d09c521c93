// Bundles the API-only server and the operator CLI into one ES module each (dependencies stay in node_modules), so
// production runs plain Node: no TypeScript loader or transform service in the serving process. `npm run start:api`
// runs dist/api-server.mjs; `node dist/cli.mjs …` is `npm run cli -- …` without tsx. The integration suite runs the
// same two files (tests/helpers/bundles.ts). BUNDLE_OUTDIR overrides the output folder (default dist).
import { build } from "esbuild";

await build({
  entryPoints: { "api-server": "scripts/api-server.ts", cli: "scripts/cli.ts" },
  outdir: process.env.BUNDLE_OUTDIR ?? "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  packages: "external",
  sourcemap: true,
  // Stack traces under --enable-source-maps need the mappings only; the TypeScript sources in the map would stay in
  // the server's heap for its whole life (about 1.7 MB of strings).
  sourcesContent: false,
  logLevel: "warning",
});
