/**
 * The TypeScript client package: its type tests compile (every @ts-expect-error in the fixture is a real error, so a
 * wrong parameter type or a misspelt field does not compile), it builds to ESM with declarations, and its main entry
 * imports nothing Node-only (it runs in browsers and edge runtimes).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = resolve("clients/typescript");
const tsc = resolve("node_modules/typescript/bin/tsc");

test("the type tests compile: wrong parameter types and misspelt fields are errors", () => {
  const r = spawnSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.json")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("a fixture with a wrong parameter does not compile (the check can fail)", () => {
  const dir = mkdtempSync(join(tmpdir(), "orclient-types-"));
  try {
    const entry = JSON.stringify(join(pkg, "src/index.js"));
    writeFileSync(
      join(dir, "wrong.ts"),
      `import { createClient } from ${entry};\nconst c = createClient({ apiKey: "k", baseUrl: "http://x" });\nexport const p = c.listOptionsFlow({ min_premum: 5 });\n`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ extends: join(pkg, "tsconfig.json"), include: [], files: [join(dir, "wrong.ts")] }),
    );
    const r = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /min_premum/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the package builds to ESM with declarations; its entry imports no node: module and loads", async () => {
  const out = mkdtempSync(join(tmpdir(), "orclient-"));
  try {
    const r = spawnSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.build.json"), "--outDir", out], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const files = readdirSync(out, { recursive: true }).map(String);
    assert.ok(files.includes("index.js") && files.includes("index.d.ts"));
    for (const f of files.filter((x) => x.endsWith(".js"))) {
      const src = readFileSync(join(out, f), "utf8");
      assert.doesNotMatch(src, /from\s+["']node:|require\(/, `${f} imports nothing Node-only`);
    }
    writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
    const mod = await import(pathToFileURL(join(out, "index.js")).href);
    assert.equal(typeof mod.createClient, "function");
    assert.equal(typeof mod.verifyWebhook, "function");
    const seen: string[] = [];
    const fetchSpy = async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify({ data: {}, disclaimer: "d", isMockData: false, dataLabel: "none" }));
    };
    for (const baseUrl of ["http://127.0.0.1:9", "http://127.0.0.1:9/api/v1/"]) {
      const client = mod.createClient({ apiKey: "svc_test_x", baseUrl, fetch: fetchSpy });
      assert.equal(typeof client.getTickerSummary, "function");
      await client.getHealth();
    }
    assert.deepEqual(seen, ["http://127.0.0.1:9/api/v1/health", "http://127.0.0.1:9/api/v1/health"]);
    const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
    assert.equal(manifest.name, "@options-research/client");
    assert.match(manifest.version, /^\d+\.\d+\.\d+$/);
    assert.equal(manifest.type, "module");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("the README's examples compile against the client and cover every method", () => {
  const readme = readFileSync(join(pkg, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  const shown = new Set([...readme.matchAll(/api\.(\w+)\(/g)].map((m) => m[1]));
  const table = readFileSync(join(pkg, "src/generated/operations.ts"), "utf8");
  const ids = [...table.matchAll(/^ {2}"(\w+)": \{/gm)].map((m) => m[1]);
  assert.ok(ids.length >= 21);
  for (const id of ids) assert.ok(shown.has(id), `the README shows api.${id}(…)`);
  const dir = mkdtempSync(join(tmpdir(), "orclient-readme-"));
  try {
    const prelude = [
      `declare const process: { env: Record<string, string | undefined> };`,
      `import { createClient as __create } from "@options-research/client";`,
      `const api = __create({ apiKey: "k", baseUrl: "http://x" });`,
    ];
    const files = blocks.map((code, i) => {
      const file = join(dir, `block${i}.ts`);
      const own = /const api\b/.test(code);
      writeFileSync(file, `${(own ? prelude.slice(0, 1) : prelude).join("\n")}\n${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: join(pkg, "tsconfig.json"),
        compilerOptions: { paths: { "@options-research/client": [join(pkg, "src/index.ts")] } },
        include: [],
        files,
      }),
    );
    const r = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
