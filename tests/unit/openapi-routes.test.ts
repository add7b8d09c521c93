/**
 * The reference as generated clients read it: every route's operation id, exactly the error codes the route declares
 * (and the status of each), typed success and error bodies with no untyped object where the API answers fields.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { allRoutes } from "../../lib/api/routes";
import { buildOpenApi } from "../../lib/api/openapi";
import { ERROR_STATUS, REQUEST_ERRORS, type ErrorCode } from "../../lib/api/errors";
import { openApiDocument } from "../../lib/contract/openapi-document";
import { defineRoute } from "../../lib/api/route";
import { z } from "zod";

const doc = buildOpenApi(allRoutes);
type Json = Record<string, unknown>;

const OPERATION_IDS: Record<string, string> = {
  "GET /api/v1/ticker/{symbol}/summary": "getTickerSummary",
  "GET /api/v1/signal-score/{symbol}": "getSignalScore",
  "GET /api/v1/options-flow": "listOptionsFlow",
  "GET /api/v1/ai/symbol/{ticker}/summary": "getSymbolSummary",
  "GET /api/v1/ai/symbol/{ticker}/no-trade": "getNoTrade",
  "GET /api/v1/data/yield-curve": "getYieldCurve",
  "GET /api/v1/data/market-sentiment": "getMarketSentiment",
  "GET /api/v1/data/watchlist-ranking": "getWatchlistRanking",
  "POST /api/v1/outputs": "createOutput",
  "GET /api/v1/symbols": "listSymbols",
  "GET /api/v1/symbols/{symbol}/expiries": "listExpiries",
  "POST /api/v1/alerts": "createAlert",
  "GET /api/v1/alerts": "listAlerts",
  "GET /api/v1/alerts/{webhookId}": "getAlert",
  "PATCH /api/v1/alerts/{webhookId}": "updateAlert",
  "DELETE /api/v1/alerts/{webhookId}": "deleteAlert",
  "POST /api/v1/alerts/{webhookId}/test": "testAlert",
  "GET /api/v1/alerts/{webhookId}/deliveries": "listAlertDeliveries",
  "POST /api/v1/alerts/{webhookId}/replay": "replayAlert",
  "POST /api/v1/alerts/{webhookId}/rotate-secret": "rotateAlertSecret",
  "GET /api/v1/history/{symbol}": "getHistory",
  "GET /api/v1/history/{symbol}/{date}": "getHistoryDay",
  "GET /api/v1/health": "getHealth",
  "GET /api/v1/stream": "openStream",
  "GET /api/v1/openapi.json": "getOpenApiDocument",
};

const operationOf = (path: string, method: string) => doc.paths[path]?.[method.toLowerCase()];

/** Follows a local `#/components/schemas/X` reference. */
function resolve(schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  const target = doc.components.schemas[name] as Json | undefined;
  assert.ok(target, `${ref} resolves`);
  return target;
}

/** The codes an error response carries: the enum its schema narrows `error.code` to. */
function codesOf(response: { content?: Record<string, { schema: Json }> }): string[] {
  const schema = response.content?.["application/json"]?.schema as { allOf?: Json[] } | undefined;
  const narrowed = schema?.allOf?.find((s) => s.$ref === undefined) as
    | { properties: { error: { properties: { code: { enum: string[] } } } } }
    | undefined;
  return narrowed?.properties.error.properties.code.enum ?? [];
}

test("every route has its operation id, unique, and the document carries it", () => {
  assert.deepEqual(allRoutes.map((r) => r.id).sort(), Object.keys(OPERATION_IDS).sort());
  for (const r of allRoutes) {
    assert.equal(r.operationId, OPERATION_IDS[r.id], r.id);
    assert.equal(operationOf(r.path, r.method)?.operationId, r.operationId, `${r.id} in the document`);
  }
  assert.equal(new Set(allRoutes.map((r) => r.operationId)).size, allRoutes.length);
});

test("each operation's error responses list exactly the codes its route declares, under each code's status", () => {
  for (const r of allRoutes) {
    const responses = operationOf(r.path, r.method)?.responses ?? {};
    const success = String(r.successStatus ?? 200);
    const documented: string[] = [];
    for (const [status, response] of Object.entries(responses)) {
      if (status === success || status === "304") continue; // 304: conditional GETs (headers only)
      const codes = codesOf(response);
      assert.ok(codes.length > 0, `${r.id} ${status} names its codes`);
      for (const code of codes) {
        assert.equal(String(ERROR_STATUS[code as ErrorCode]), status, `${r.id}: ${code} is documented under ${status}`);
        assert.ok(response.description.includes(`\`${code}\``), `${r.id} ${status} describes ${code}`);
      }
      documented.push(...codes);
    }
    assert.deepEqual(documented.sort(), [...new Set(r.errors)].sort(), `${r.id}: documented = declared`);
    for (const code of r.errors) assert.ok(responses[String(ERROR_STATUS[code])], `${r.id} has ${ERROR_STATUS[code]}`);
    const firstError = responses[String(ERROR_STATUS[r.errors[0]])].content?.["application/json"].schema;
    const allOf = (firstError?.allOf ?? []) as Json[];
    const family = resolve(allOf[0] ?? {});
    assert.equal(family, doc.components.schemas[`Error${r.family}`], `${r.id} errors in its family's shape`);
  }
});

test("envelopes are stated per route: keyed routes answer in their family's, the reference in none", () => {
  for (const r of allRoutes) {
    if (r.authenticated) assert.equal(r.envelope, r.family, r.id);
    const content = operationOf(r.path, r.method)?.responses[String(r.successStatus ?? 200)].content;
    if (r.streams) {
      // A stream documents one event (no envelope) as text/event-stream.
      assert.equal(content?.["application/json"], undefined, r.id);
      assert.ok(content?.["text/event-stream"]?.schema, r.id);
      continue;
    }
    const schema = content?.["application/json"].schema as Json;
    if (r.envelope === "none") assert.equal(schema.allOf, undefined, r.id);
    else assert.equal((schema.allOf as Json[])[0].$ref, `#/components/schemas/Envelope${r.envelope}`, r.id);
  }
  assert.equal(allRoutes.find((r) => r.id === "GET /api/v1/openapi.json")?.envelope, "none");
  assert.equal(allRoutes.find((r) => r.id === "GET /api/v1/health")?.envelope, "B");
});

/** Every place a schema leaves an object's fields open or says nothing at all; JSON Schema slots are open by nature. */
function untyped(schema: unknown, path: string, out: string[]) {
  if (schema === null || typeof schema !== "object") return;
  if (Array.isArray(schema)) {
    for (const [i, s] of schema.entries()) untyped(s, `${path}[${i}]`, out);
    return;
  }
  const s = schema as Json;
  if (typeof s.description === "string" && s.description.startsWith("A JSON Schema")) return;
  const keywords = Object.keys(s).filter((k) => k !== "description" && k !== "example");
  if (keywords.length === 0) out.push(`${path}: {}`);
  if (s.type === "object" && !s.properties && !s.additionalProperties) out.push(`${path}: object without fields`);
  if (s.additionalProperties !== undefined && typeof s.additionalProperties === "object") {
    if (Object.keys(s.additionalProperties as Json).length === 0) out.push(`${path}: open record`);
  }
  for (const [k, v] of Object.entries(s)) {
    if (k === "properties" || k === "$defs" || k === "patternProperties") {
      for (const [name, sub] of Object.entries(v as Json)) untyped(sub, `${path}.${name}`, out);
    } else if (typeof v === "object") untyped(v, `${path}.${k}`, out);
  }
}

test("every response, error and body schema is precise enough to generate types from", () => {
  const problems: string[] = [];
  for (const r of allRoutes) {
    const op = operationOf(r.path, r.method);
    for (const [status, response] of Object.entries(op?.responses ?? {}))
      for (const c of Object.values(response.content ?? {})) untyped(c.schema, `${r.operationId} ${status}`, problems);
    untyped(op?.requestBody?.content["application/json"].schema, `${r.operationId} body`, problems);
    for (const p of op?.parameters ?? []) untyped(p.schema, `${r.operationId} ${p.name}`, problems);
  }
  for (const [name, schema] of Object.entries(doc.components.schemas)) untyped(schema, name, problems);
  for (const [type, item] of Object.entries(doc.webhooks))
    untyped(item.post?.requestBody?.content["application/json"].schema, `webhook ${type}`, problems);
  assert.deepEqual(problems, []);
});

test("the reference matches its own published schema, and its tags read as words, not variants", () => {
  openApiDocument.parse(doc);
  for (const t of doc.tags) assert.doesNotMatch(t.name, /variant|family/i);
  const used = new Set(allRoutes.flatMap((r) => r.tags));
  for (const t of used)
    assert.ok(
      doc.tags.some((d) => d.name === t),
      `tag ${t} is described`,
    );
});

test("one way to build the document: nothing imports @asteasolutions/zod-to-openapi", () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "node_modules" ? [] : files(path);
      return /\.(ts|tsx|mjs|cjs|js)$/.test(name) ? [path] : [];
    });
  const sources = ["lib", "app", "scripts", "components", "bench", "fixtures"].flatMap(files);
  const importing = sources.filter((f) => readFileSync(f, "utf8").includes("@asteasolutions/zod-to-openapi"));
  assert.deepEqual(importing, []);
});

test("a handler that answers another shape than its response schema does not compile", () => {
  const route = defineRoute({
    operationId: "getExample",
    method: "GET",
    path: "/api/v1/example",
    family: "B",
    envelope: "B",
    errors: REQUEST_ERRORS,
    tags: ["Service"],
    summary: "Example",
    description: "Example.",
    authenticated: false,
    response: z.object({ count: z.number() }),
    // @ts-expect-error count must be a number
    handler: () => ({ data: { count: "three" } }),
  });
  assert.equal(route.id, "GET /api/v1/example");
});

test("every response declares its headers: request id always, rate limits once keyed, the status's own", () => {
  for (const r of allRoutes) {
    for (const [status, response] of Object.entries(operationOf(r.path, r.method)?.responses ?? {})) {
      const headers = Object.keys(response.headers ?? {});
      const where = `${r.id} ${status}`;
      assert.ok(headers.includes("X-Request-Id"), where);
      for (const h of headers)
        assert.ok(doc.components.headers[(response.headers ?? {})[h].$ref.split("/").pop() ?? ""], h);
      if (r.authenticated && status !== "401")
        for (const h of [
          "RateLimit",
          "RateLimit-Policy",
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
        ])
          assert.ok(headers.includes(h), `${where} ${h}`);
      if (status === "401") assert.ok(headers.includes("WWW-Authenticate"), where);
      if (status === "429" || status === "503") assert.ok(headers.includes("Retry-After"), where);
      if (status === "201") assert.ok(headers.includes("Location"), where);
      if (status === "304")
        assert.deepEqual(headers.includes("ETag") && headers.includes("Cache-Control"), true, where);
    }
  }
});

test("integer query parameters are typed integer; the history CSV answer and webhook operations are declared", () => {
  const flow = operationOf("/api/v1/options-flow", "GET")?.parameters ?? [];
  for (const name of ["min_premium", "limit"]) {
    const p = flow.find((x) => x.name === name);
    assert.equal(p?.schema.type, "integer", name);
    assert.equal(p?.schema.pattern, undefined, name);
    assert.equal(p?.schema.minimum, 0, name);
    if (p?.example !== undefined) assert.equal(typeof p.example, "number", name);
  }
  const history = operationOf("/api/v1/history/{symbol}", "GET")?.responses["200"].content ?? {};
  assert.deepEqual(Object.keys(history).sort(), ["application/json", "text/csv"]);
  for (const [type, item] of Object.entries(doc.webhooks)) {
    assert.match(item.post.operationId, /^[a-z][A-Za-z]+Webhook$/, type);
    assert.deepEqual(item.post.security, [], type);
  }
  assert.ok(doc.info.license.name && doc.info.license.identifier.startsWith("LicenseRef-"));
  assert.ok(doc.info.contact.name);
});
