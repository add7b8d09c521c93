import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { build } from "esbuild";

describe("the API server bundle's start-up imports (issue 33: peak RSS)", () => {
  it("loads pg-boss only when the sync queue starts (MARKET_DATA_PROVIDER), not at start-up", async () => {
    // As scripts/build-api.mjs bundles it; a static import would load pg-boss, node-postgres, cron-parser and luxon
    // into every server, which holds their code and source for its whole life.
    const result = await build({
      entryPoints: ["scripts/api-server.ts"],
      bundle: true,
      platform: "node",
      target: "node20",
      format: "esm",
      packages: "external",
      write: false,
      metafile: true,
      outdir: "out",
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
    const pgBoss = imports.filter((i) => i.path === "pg-boss");
    assert.ok(pgBoss.length > 0, "the bundle no longer uses pg-boss: drop this test");
    assert.deepEqual([...new Set(pgBoss.map((i) => i.kind))], ["dynamic-import"]);
  });
});
