import { test } from "node:test";
import assert from "node:assert/strict";
import { buildOpenApi } from "../../lib/api/openapi";
import { allRoutes } from "../../lib/api/routes";
import { bodyValue, playgroundOperations, requestPath, sampleParams } from "../../lib/portal/playground-operations";
import { operationIdFor } from "../../clients/snippets";

const ops = playgroundOperations(buildOpenApi(allRoutes));

test("every route of both families is an operation, with the family and key requirement of its route", () => {
  assert.deepEqual(ops.map((o) => o.id).sort(), allRoutes.map((r) => r.id).sort());
  for (const r of allRoutes) {
    const op = ops.find((o) => o.id === r.id)!;
    assert.equal(op.family, r.family);
    assert.equal(op.authenticated, r.authenticated);
    assert.equal(op.hasBody, Boolean(r.body));
  }
});

test("fields come from the document: path and query parameters, body properties with kinds and options", () => {
  const flow = ops.find((o) => o.id === "GET /api/v1/options-flow")!;
  assert.deepEqual(
    flow.fields.map((f) => [f.name, f.in, f.required, f.kind]),
    [
      ["symbol", "query", false, "text"],
      ["min_premium", "query", false, "integer"],
      ["type", "query", false, "enum"],
      ["since", "query", false, "text"],
      ["limit", "query", false, "integer"],
      ["side", "query", false, "enum"],
      ["expiry_from", "query", false, "text"],
      ["expiry_to", "query", false, "text"],
      ["moneyness", "query", false, "enum"],
    ],
  );
  assert.deepEqual(flow.fields.find((f) => f.name === "type")!.options, ["sweep", "block", "unusual"]);
  const summary = ops.find((o) => o.id === "GET /api/v1/ticker/{symbol}/summary")!;
  assert.deepEqual(summary.fields, [
    {
      name: "symbol",
      in: "path",
      required: true,
      description: summary.fields[0].description,
      kind: "text",
      example: "AAPL",
    },
    {
      name: "as_of",
      in: "query",
      required: false,
      description: summary.fields[1].description,
      kind: "text",
    },
  ]);
  const outputs = ops.find((o) => o.id === "POST /api/v1/outputs")!;
  const kinds = Object.fromEntries(outputs.fields.map((f) => [f.name, [f.in, f.kind, f.required]]));
  assert.deepEqual(kinds, {
    symbol: ["body", "text", true],
    strategy: ["body", "enum", true],
    expiry: ["body", "text", true],
    strikes: ["body", "number-list", true],
    quantity: ["body", "integer", false],
  });
  const alerts = ops.find((o) => o.id === "POST /api/v1/alerts")!;
  assert.equal(alerts.fields.find((f) => f.name === "events")!.kind, "enum-list");
  assert.equal(alerts.fields.find((f) => f.name === "symbols")!.kind, "list");
});

test("examples fill what a first call needs: a required symbols list starts filled, the stream's optional filter empty", () => {
  const example = (id: string) => ops.find((o) => o.id === id)!.fields.find((f) => f.name === "symbols")!.example;
  assert.equal(example("GET /api/v1/data/watchlist-ranking"), "AAPL,MSFT,SPY");
  // Empty = every symbol: the demo's night session prints a flow event about every 20 s over the whole universe.
  assert.equal(example("GET /api/v1/stream"), undefined);
});

test("requestPath encodes path parameters and drops empty query values; bodyValue parses numbers and lists", () => {
  assert.equal(requestPath("/api/v1/ticker/{symbol}/summary", { symbol: "BRK.B" }, {}), "/api/v1/ticker/BRK.B/summary");
  assert.equal(requestPath("/api/v1/alerts/{webhookId}", { webhookId: "../x" }, {}), "/api/v1/alerts/..%2Fx");
  assert.equal(
    requestPath("/api/v1/options-flow", {}, { symbol: "AAPL", type: "", limit: "5" }),
    "/api/v1/options-flow?symbol=AAPL&limit=5",
  );
  const f = (kind: "number-list" | "list" | "integer" | "text") => ({
    name: "x",
    in: "body" as const,
    required: false,
    kind,
  });
  assert.deepEqual(bodyValue(f("number-list"), "100, 105"), [100, 105]);
  assert.deepEqual(bodyValue(f("list"), "AAPL,MSFT ,"), ["AAPL", "MSFT"]);
  assert.equal(bodyValue(f("integer"), "3"), 3);
  assert.equal(bodyValue(f("text"), "  "), undefined);
});

test("sampleParams names and types a request's values as the client libraries take them; empty values are left out", () => {
  const deliveries = ops.find((o) => o.id === "GET /api/v1/alerts/{webhookId}/deliveries")!;
  assert.deepEqual(sampleParams(deliveries, { params: { webhookId: "wh_1" }, query: { limit: "20" } }), {
    webhookId: "wh_1",
    limit: 20,
  });
  assert.deepEqual(sampleParams(deliveries, { params: { webhookId: "wh_1" }, query: { limit: "" } }), {
    webhookId: "wh_1",
  });
  const outputs = ops.find((o) => o.id === "POST /api/v1/outputs")!;
  assert.deepEqual(
    sampleParams(outputs, { params: {}, query: {}, body: { symbol: "AAPL", strikes: [200], quantity: undefined } }),
    { symbol: "AAPL", strikes: [200] },
  );
});

test("every playground operation but the document itself has a client method, so its code shows in three languages", () => {
  for (const op of ops) if (op.path !== "/api/v1/openapi.json") assert.ok(operationIdFor(op.method, op.path), op.id);
});
