/**
 * The layer rules (.dependency-cruiser*.cjs, run by `npm run lint`) hold on the real tree and catch a planted violation
 * of each rule. Planted files live in one probe folder per layer, removed before the test ends.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";

const ROOT = join(import.meta.dirname, "..", "..");
const PROBE = `__layers_probe_${process.pid}__`;
const DEPCRUISE = join(ROOT, "node_modules", ".bin", "depcruise");
const planted = new Set<string>();

function plant(dir: string, name: string, text: string): string {
  const rel = `${dir}/${PROBE}/${name}`;
  mkdirSync(dirname(join(ROOT, rel)), { recursive: true });
  writeFileSync(join(ROOT, rel), text);
  planted.add(join(ROOT, dir, PROBE));
  return rel;
}

function removeProbes(): void {
  for (const dir of planted) rmSync(dir, { recursive: true, force: true });
  planted.clear();
}
after(removeProbes);

function cruise(config: string, roots: string[]): { status: number | null; output: string } {
  const r = spawnSync(DEPCRUISE, [...roots, "--config", config, "--output-type", "err"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

type Plant = [dir: string, name: string, text: string];
const imports = (target: string) => `import * as m from "${target}";\nexport { m };\n`;

/** Each planted file and the rule it breaks; planted together, each must be reported on its own line. */
const LAYER_PLANTS: Array<[rule: string, plant: Plant]> = [
  ["no-cycle", ["lib/util", "cycle-a.ts", 'import { b } from "./cycle-b";\nexport const a = () => b;\n']],
  ...["app/layout", "components/providers", "scripts/cli", "scripts/api-server", "bench/engine"].map(
    (t, i): [string, Plant] => ["lib-not-upward", ["lib/util", `up-${i}.ts`, imports(`@/${t}`)]],
  ),
  ["lib-not-upward", ["lib/util", "up-tests.ts", imports("../../../tests/helpers/test-db")]],
  ["analytics-only-util", ["lib/analytics", "log.ts", imports("@/lib/log")]],
  ["leaves-stay-leaves", ["lib/shared", "db.ts", imports("@/lib/db/tx")]],
  ...["api/errors", "portal/types", "auth/settings", "server/gateway"].map((t, i): [string, Plant] => [
    "domain-not-web",
    ["lib/domain", `web-${i}.ts`, imports(`@/lib/${t}`)],
  ]),
  ["portal-not-api", ["lib/portal", "routes.ts", imports("@/lib/api/routes")]],
  ...["engine", "market"].flatMap((from) =>
    ["api/errors", "portal/types", "auth/settings", "server/gateway", "domain/errors"].map((t, i): [string, Plant] => [
      "engine-market-not-above",
      [`lib/${from}`, `above-${i}.ts`, imports(`@/lib/${t}`)],
    ]),
  ),
  ["leaves-stay-leaves", ["lib/keys", "db.ts", imports("@/lib/db/tx")]],
  ["leaves-stay-leaves", ["lib/http", "log.ts", imports("@/lib/log")]],
  ["engine-market-not-above", ["lib/webhooks", "above.ts", imports("@/lib/domain/errors")]],
  ["mail-beside-web", ["lib/domain", "mail.ts", imports("@/lib/mail/mailer")]],
  ["security-low", ["lib/security", "db.ts", imports("@/lib/db/tx")]],
  ["contract-low", ["lib/contract", "db.ts", imports("@/lib/db/tx")]],
  ["tools-not-tests", ["scripts", "tests.ts", imports("../../tests/helpers/test-db")]],
  ["tools-not-tests", ["bench", "tests.ts", imports("../../tests/helpers/test-db")]],
];

const clientModule = (body: string) => `"use client";\n${body}export const X = () => String(m);\n`;
const CLIENT_PLANTS: Array<[rule: string, plant: Plant]> = [
  ...["lib/db/tx", "lib/domain/errors", "lib/server/gateway", "db/schema/index"].map((t, i): [string, Plant] => [
    "client-not-server",
    ["components", `client-${i}.tsx`, clientModule(`import * as m from "@/${t}";\n`)],
  ]),
  // Reaching the domain through a module that is not itself a client file counts too.
  ["client-not-server", ["components", "client-indirect.tsx", clientModule('import { y as m } from "./middle";\n')]],
];
const CYCLE_B: Plant = ["lib/util", "cycle-b.ts", 'import { a } from "./cycle-a";\nexport const b = () => a;\n'];
const MIDDLE: Plant = ["components", "middle.ts", 'import * as d from "@/lib/domain/errors";\nexport const y = d;\n'];

function expectViolations(config: string, plants: Array<[string, Plant]>, extra: Plant[] = []): void {
  try {
    const roots = plants.map(([, [dir, name, text]]) => plant(dir, name, text));
    for (const [dir, name, text] of extra) plant(dir, name, text);
    const { status, output } = cruise(config, roots);
    assert.notEqual(status, 0, `lint passed on planted violations\n${output}`);
    const lines = output.split("\n");
    for (const [rule, from] of plants.map(([r], i) => [r, roots[i]])) {
      assert.ok(
        // A cycle is reported from whichever of its two files the cruise meets first.
        lines.some((l) =>
          l.includes(`error ${rule}: ${rule === "no-cycle" ? from.replace(/cycle-a\.ts$/, "cycle-") : from}`),
        ),
        `${rule} not reported for ${from}\n${output}`,
      );
    }
  } finally {
    removeProbes();
  }
  for (const [, [dir]] of plants) assert.equal(existsSync(join(ROOT, dir, PROBE)), false);
}

/**
 * `npm test` runs `npm run lint` as its first step and says so here (LINT_PASSED=1, set only when that step passed):
 * the same 30 s are not spent twice. Run on its own, this file runs the lint itself.
 */
test("npm run lint passes on the real tree", {
  skip: process.env.LINT_PASSED === "1" && "passed in this run's lint step",
}, () => {
  const r = spawnSync("npm", ["run", "-s", "lint"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});

test("a planted violation of each layer rule fails", () => {
  expectViolations(".dependency-cruiser.cjs", LAYER_PLANTS, [CYCLE_B]);
});

test('a "use client" file reaching lib/db, lib/domain, lib/server or db/ fails', () => {
  expectViolations(".dependency-cruiser-client.cjs", CLIENT_PLANTS, [MIDDLE]);
});
