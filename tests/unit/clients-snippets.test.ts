/** Copy-as-code samples: for every operation, the TypeScript compiles against the client, the Python names real
 * keyword arguments, and the curl command sends what the client would (same URL and body), never the key itself. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { codeSamples, operationIdFor, type SampleParams } from "../../clients/snippets";
import { OPERATIONS, type OperationId } from "../../clients/typescript/src/generated/operations";
import { buildRequest } from "../../clients/typescript/src/client";

const WH = "wh_0123456789abcdef01234567";
const EXAMPLES: Record<OperationId, SampleParams> = {
  getTickerSummary: { symbol: "AAPL" },
  getSignalScore: { symbol: "MSFT" },
  listOptionsFlow: { symbol: "AAPL", min_premium: 50000 },
  getSymbolSummary: { ticker: "AAPL" },
  getNoTrade: { ticker: "TSLA" },
  getYieldCurve: {},
  getMarketSentiment: {},
  getWatchlistRanking: { symbols: "AAPL,MSFT" },
  createOutput: { symbol: "AAPL", strategy: "long_call", expiry: "2026-12-18", strikes: [200] },
  listSymbols: {},
  listExpiries: { symbol: "AAPL" },
  createAlert: { url: "https://example.com/h", events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
  listAlerts: {},
  getAlert: { webhookId: WH },
  updateAlert: { webhookId: WH, status: "paused" },
  deleteAlert: { webhookId: WH },
  testAlert: { webhookId: WH },
  listAlertDeliveries: { webhookId: WH, limit: 20 },
  replayAlert: { webhookId: WH, from: "2026-11-20T00:00:00Z", to: "2026-11-21T00:00:00Z" },
  rotateAlertSecret: { webhookId: WH },
  getHealth: {},
};

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

test("every TypeScript sample compiles against the client; every Python sample calls a real method with real names", () => {
  const pkg = resolve("clients/typescript");
  const dir = mkdtempSync(join(tmpdir(), "orsnippets-"));
  try {
    const files: string[] = [];
    const python: string[] = [];
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      const s = codeSamples(id, EXAMPLES[id], "https://api.example.com");
      const f = join(dir, `${id}.ts`);
      writeFileSync(
        f,
        `declare const process: { env: Record<string, string | undefined> };\n${s.typescript}\nexport {};\n`,
      );
      files.push(f);
      python.push(s.python);
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
