/** Copy-as-code samples: for every operation, the TypeScript compiles against the client, the Python names real
 * keyword arguments, and the curl command sends what the client would (same URL and body), never the key itself. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { codeSamples, operationIdFor, type SampleParams } from "../../clients/snippets";
import { OPERATION_EXAMPLES } from "../../clients/snippets/examples";
import { OPERATIONS, type OperationId } from "../../clients/typescript/src/generated/operations";
import { buildRequest } from "../../clients/typescript/src/client";
import { buildOpenApi } from "../../lib/api/openapi";
import { allRoutes } from "../../lib/api/routes";
import { playgroundOperations, sampleParams } from "../../lib/portal/playground-operations";

const EXAMPLES = OPERATION_EXAMPLES;

test("curl sends the client's URL and body; the key stays in the environment", () => {
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    const s = codeSamples(id, EXAMPLES[id], "https://api.example.com");
    const { url, body } = buildRequest("https://api.example.com", OPERATIONS[id], EXAMPLES[id]);
    assert.ok(s.curl.includes(`'${url}'`), `${id}: ${s.curl}`);
    if (body) assert.ok(s.curl.includes(`-d '${body}'`), `${id} body`);
    for (const code of Object.values(s)) assert.doesNotMatch(code, /svc_(test|live|sk)_/);
    assert.match(s.python, /os\.environ\["API_KEY"\]/);
    if (OPERATIONS[id].authenticated) assert.match(s.curl, /\$API_KEY/);
    assert.equal(operationIdFor(OPERATIONS[id].method, OPERATIONS[id].path), id);
  }
});

/** The playground's samples: path and query values as its form holds them (text), mapped by sampleParams. */
const playground = playgroundOperations(buildOpenApi(allRoutes));
function fromPlaygroundForm(id: OperationId): SampleParams {
  const op = OPERATIONS[id];
  const form = playground.find((o) => o.method === op.method && o.path === op.path);
  assert.ok(form, `${id} is in the playground`);
  const text = (names: readonly string[]) =>
    Object.fromEntries(names.filter((n) => n in EXAMPLES[id]).map((n) => [n, String(EXAMPLES[id][n])]));
  const body = Object.fromEntries(op.bodyFields.filter((n) => n in EXAMPLES[id]).map((n) => [n, EXAMPLES[id][n]]));
  return sampleParams(form, { params: text(op.pathParams), query: text(op.queryParams), body });
}

test("the playground's samples send what the hand-written examples send", () => {
  for (const id of Object.keys(OPERATIONS) as OperationId[]) {
    const viaForm = buildRequest("https://h", OPERATIONS[id], fromPlaygroundForm(id));
    assert.deepEqual(viaForm, buildRequest("https://h", OPERATIONS[id], EXAMPLES[id]), id);
  }
});

test("every TypeScript sample compiles against the client; every Python sample calls a real method with real names", () => {
  const pkg = resolve("clients/typescript");
  const dir = mkdtempSync(join(tmpdir(), "orsnippets-"));
  try {
    const files: string[] = [];
    const python: string[] = [];
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      for (const [name, params] of [
        [id, EXAMPLES[id]],
        [`${id}.playground`, fromPlaygroundForm(id)],
      ] as const) {
        const s = codeSamples(id, params, "https://api.example.com");
        const f = join(dir, `${name}.ts`);
        writeFileSync(
          f,
          `declare const process: { env: Record<string, string | undefined> };\n${s.typescript}\nexport {};\n`,
        );
        files.push(f);
        python.push(s.python);
      }
    }
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
    const tsc = spawnSync(
      process.execPath,
      [resolve("node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
      {
        encoding: "utf8",
      },
    );
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    // each Python sample's client call binds to the method's signature (names and required arguments)
    const check = [
      "import ast, inspect, json, sys",
      "from options_research import Client",
      "for src in json.load(sys.stdin):",
      "    for node in ast.walk(ast.parse(src)):",
      "        f = node.func if isinstance(node, ast.Call) else None",
      "        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == 'client':",
      "            inspect.signature(getattr(Client, f.attr)).bind(None, **{k.arg: None for k in node.keywords})",
      "print('ok')",
    ].join("\n");
    const r = spawnSync("python3", ["-c", check], {
      cwd: resolve("clients/python"),
      input: JSON.stringify(python),
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
