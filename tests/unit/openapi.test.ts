import { test } from "node:test";
import assert from "node:assert/strict";
import { allRoutes, meteredRoutes } from "../../lib/api/routes";
import { buildOpenApi } from "../../lib/api/openapi";
import { ERROR_STATUS } from "../../lib/api/errors";
import { STACK_TRACE } from "../helpers/leak-patterns";

const doc = buildOpenApi(allRoutes) as any;

test("the reference is OpenAPI 3.1 and documents every served route and method", () => {
  assert.equal(doc.openapi, "3.1.0");
  for (const r of allRoutes) {
    const op = doc.paths[r.path]?.[r.method.toLowerCase()];
    assert.ok(op, `${r.id} is documented`);
    assert.ok(op.summary && op.description, `${r.id} has a summary and description`);
    assert.ok(op.responses[String(r.successStatus ?? 200)], `${r.id} documents its success status`);
  }
  assert.equal(meteredRoutes.length, 23);
});

test("parameters and bodies come from the validating schemas", () => {
  const flow = doc.paths["/api/v1/options-flow"].get;
  const names = flow.parameters.map((p: any) => p.name).sort();
  assert.deepEqual(names, [
    "expiry_from",
    "expiry_to",
    "limit",
    "min_premium",
    "moneyness",
    "side",
    "since",
    "symbol",
    "type",
  ]);
  const summary = doc.paths["/api/v1/ticker/{symbol}/summary"].get;
  assert.deepEqual(
    summary.parameters.map((p: any) => [p.name, p.in, p.required]),
    [
      ["symbol", "path", true],
      ["as_of", "query", false],
    ],
  );
  const history = doc.paths["/api/v1/history/{symbol}"].get;
  assert.deepEqual(
    history.parameters.map((p: any) => [p.name, p.in, p.required]),
    [
      ["symbol", "path", true],
      ["from", "query", false],
      ["to", "query", false],
      ["fields", "query", false],
      ["format", "query", false],
    ],
  );
  const outputs = doc.paths["/api/v1/outputs"].post.requestBody.content["application/json"].schema;
  assert.ok(outputs.properties.strategy.enum.includes("iron_condor"));
  assert.ok(doc.paths["/api/v1/alerts"].post.requestBody.content["application/json"].schema.properties.url);
});

test("every error code, every limit and every number's definition is in the reference", () => {
  assert.deepEqual(doc["x-error-codes"].map((e: any) => e.code).sort(), Object.keys(ERROR_STATUS).sort());
  assert.deepEqual(
    doc["x-plans"].map((p: any) => [
      p.plan,
      p.familyA.perMinute,
      p.familyA.perMonth,
      p.familyB.perMinute,
      p.familyB.perDay,
      p.familyB.streamsPerKey,
    ]),
    [
      ["Sandbox", 10, 100, 5, 100, 2],
      ["Starter", 30, 10_000, 60, 10_000, 2],
      ["Pro", 120, 100_000, 300, 100_000, 10],
      ["Enterprise", 600, 2_000_000, 1000, 1_000_000, 100],
    ],
  );
  const defs = JSON.stringify(doc["x-definitions"]);
  for (const term of [
    "service_score",
    "ivRank",
    "spread10y2y",
    "premium",
    "probabilityOfProfit",
    "liquidityScore",
    "treasury",
  ]) {
    assert.ok(defs.includes(term), `definitions mention ${term}`);
  }
  const statuses = doc.paths["/api/v1/ticker/{symbol}/summary"].get.responses;
  for (const s of ["400", "401", "403", "404", "429", "500", "503"])
    assert.ok(statuses[s], `family A route documents ${s}`);
  assert.ok(doc.paths["/api/v1/outputs"].post.responses["413"], "B body routes document 413");
});

test("webhooks: every event type's payload, the signing headers, the schedule, statuses and safety rules are documented", () => {
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [
    "iv.day_change_exceeded",
    "iv_rank.crossed_above",
    "iv_rank.crossed_below",
    "no_trade.decision_changed",
    "webhook.test",
  ]);
  for (const [type, item] of Object.entries<any>(doc.webhooks)) {
    const schema = item.post.requestBody.content["application/json"].schema;
    assert.deepEqual(schema.required.sort(), ["data", "timestamp", "type"], type);
    for (const f of ["disclaimer", "isMockData", "dataLabel"])
      assert.ok(schema.properties.data.properties[f], `${type} data.${f}`);
    assert.deepEqual(
      item.post.parameters.map((p: any) => p.name),
      ["webhook-id", "webhook-timestamp", "webhook-signature"],
    );
  }
  const notes = doc.info.description;
  assert.match(notes, /after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h \(each ±10 %\),\s+8 attempts/);
  assert.match(notes, /within\s+15 s/);
  assert.match(notes, /for\s+5 days/);
  assert.match(notes, /for\s+24 h every delivery carries two signatures/);
  for (const s of ["`active`", "`paused`", "`disabled`", "`deleted`", "169.254.169.254", "IPv4-mapped", "4 kB"])
    assert.ok(notes.includes(s), s);
  for (const p of [
    "/api/v1/alerts/{webhookId}/test",
    "/api/v1/alerts/{webhookId}/deliveries",
    "/api/v1/alerts/{webhookId}/rotate-secret",
    "/api/v1/alerts/{webhookId}/replay",
  ])
    assert.ok(doc.paths[p], p);
  assert.ok(doc.paths["/api/v1/alerts/{webhookId}"].patch.requestBody);
  assert.ok(doc.paths["/api/v1/alerts/{webhookId}/test"].post.responses["202"]);
});

test("the reference's prose trips none of the contract suite's leak checks (it is a response body like any other)", () => {
  const text = JSON.stringify(doc);
  const hit = STACK_TRACE.exec(text);
  assert.equal(hit && text.slice(Math.max(0, hit.index - 80), hit.index + 40), null, "reads as a stack trace");
});
