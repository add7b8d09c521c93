/** The committed client files are exactly what `npm run clients:generate` makes from the app's OpenAPI document. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { allRoutes } from "../../lib/api/routes";
import { buildOpenApi } from "../../lib/api/openapi";
import { GENERATED_FILES, generateClientFiles } from "../../scripts/clients/generate";
import { operationTable, type Json } from "../../scripts/clients/operations";

const ISSUE_OPERATION_IDS = [
  "getTickerSummary",
  "getSignalScore",
  "listOptionsFlow",
  "getSymbolSummary",
  "getNoTrade",
  "getYieldCurve",
  "getMarketSentiment",
  "getWatchlistRanking",
  "createOutput",
  "listSymbols",
  "listExpiries",
  "createAlert",
  "listAlerts",
  "getAlert",
  "updateAlert",
  "deleteAlert",
  "testAlert",
  "listAlertDeliveries",
  "replayAlert",
  "rotateAlertSecret",
  "getHealth",
];

test("the committed generated files are up to date (run npm run clients:generate)", async () => {
  const files = await generateClientFiles(buildOpenApi(allRoutes));
  for (const [k, path] of Object.entries(GENERATED_FILES)) {
    const committed = readFileSync(path, "utf8");
    assert.ok(
      committed === files[k as keyof typeof files],
      `${path} differs from what the OpenAPI document generates: run npm run clients:generate`,
    );
  }
});

test("the clients have one method per operation id of the document, the issue's names included", () => {
  const rows = operationTable(buildOpenApi(allRoutes));
  const ids = rows.map((r) => r.operationId);
  for (const id of ISSUE_OPERATION_IDS) assert.ok(ids.includes(id), `operation ${id}`);
  assert.equal(rows.length, allRoutes.length - 1, "every route but the document itself");
  const tsTable = readFileSync(GENERATED_FILES.tsOperations, "utf8");
  const py = readFileSync(GENERATED_FILES.python, "utf8");
  for (const id of ids) {
    assert.ok(tsTable.includes(`"${id}": {`), `TypeScript table has ${id}`);
    const snake = id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
    assert.ok(py.includes(`    def ${snake}(`), `Python method ${snake}`);
  }
});

test("the generator refuses a document whose operation ids are not method names or collide", () => {
  const doc = buildOpenApi(allRoutes) as Json;
  const broken = structuredClone(doc);
  broken.paths["/api/v1/health"].get.operationId = "GET_api_v1_health";
  assert.throws(() => operationTable(broken), /lowerCamelCase/);
  const twice = structuredClone(doc);
  twice.paths["/api/v1/health"].get.operationId = "getTickerSummary";
  assert.throws(() => operationTable(twice), /used twice/);
});

test("schemas behind $refs (components) are followed, and a component keeps its name in Python", async () => {
  const doc = structuredClone(buildOpenApi(allRoutes)) as Json;
  const op = doc.paths["/api/v1/ticker/{symbol}/summary"].get;
  const envelope = op.responses["200"].content["application/json"].schema;
  const member = envelope.allOf.find((p: Json) => p.properties?.data);
  doc.components.schemas.TickerSummary = member.properties.data;
  member.properties.data = { $ref: "#/components/schemas/TickerSummary" };
  doc.components.schemas.TickerSummaryEnvelope = envelope;
  op.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/TickerSummaryEnvelope" };
  const files = await generateClientFiles(doc);
  assert.match(files.python, /^TickerSummary = TypedDict\("TickerSummary", \{"symbol": str,/m);
  assert.match(files.python, /def get_ticker_summary\([\s\S]*?\) -> "Result\[TickerSummary\]":/);
  assert.match(files.tsSchema, /TickerSummary: \{/);
});
