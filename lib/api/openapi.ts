/** Builds the OpenAPI 3.1 reference from the route table: the schemas that validate requests also document them. */
import { INPUT_EXAMPLES } from "./input-examples";
import { z } from "zod";
import { VERSION } from "../version";
import { PLAN_SEED } from "../domain/plans-catalogue";
import { DEFAULT_PENDING_LIVE } from "../domain/seed";
import { DISCLAIMER } from "../contract/disclaimer";
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "./errors";
import type { RouteDef } from "./route";
import { REFERENCE_NOTES, metricDefinitions } from "./reference-notes";
import { WEBHOOK_NOTES, webhookOperations } from "./webhook-reference";

type Json = Record<string, unknown>;

/** Method-like operation ids (the client libraries' method names). */
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
  "GET /api/v1/health": "getHealth",
  "GET /api/v1/openapi.json": "getOpenApi",
};

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  delete out.$schema;
  return out;
}

/** Parameters with the same examples the 400 messages quote (lib/api/input-examples.ts); a test calls each of them. */
function objectParams(schema: z.ZodType | undefined, where: "path" | "query"): Json[] {
  if (!schema) return [];
  const s = jsonSchema(schema, "input");
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[]) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    description: p.description,
    schema: p,
    ...(INPUT_EXAMPLES[name] !== undefined ? { example: INPUT_EXAMPLES[name] } : {}),
  }));
}

const AUTH_ERRORS: ErrorCode[] = ["missing_api_key", "invalid_api_key", "inactive_key", "subscription_required"];
const LIMIT_ERRORS: ErrorCode[] = ["endpoint_pending_licensing", "rate_limit_exceeded", "plan_limit_exceeded"];

function errorCodesFor(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ["invalid_request", "method_not_allowed", "internal_error"];
  if (!route.authenticated) return codes;
  codes.push(...AUTH_ERRORS, ...LIMIT_ERRORS, "data_source_unavailable");
  if (route.family === "B" && route.body) codes.push("payload_too_large");
  if (
    route.path.includes("{symbol}") ||
    route.path.includes("{ticker}") ||
    route.id.includes("watchlist") ||
    route.id.includes("outputs")
  )
    codes.push("symbol_not_found");
  if (route.path.includes("{webhookId}")) codes.push("not_found");
  return codes;
}

function responsesFor(route: RouteDef): Json {
  const data = route.response ? jsonSchema(route.response, "output") : { type: "object" };
  const envelope =
    route.id === "GET /api/v1/openapi.json"
      ? { type: "object", description: "This document." }
      : !route.authenticated
        ? { allOf: [{ $ref: "#/components/schemas/EnvelopeB" }, { properties: { data } }] }
        : { allOf: [{ $ref: `#/components/schemas/Envelope${route.family}` }, { properties: { data } }] };
  const out: Json = {
    [String(route.successStatus ?? 200)]: {
      description: "Success",
      content: { "application/json": { schema: envelope } },
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesFor(route))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(" "),
      content: { "application/json": { schema: { $ref: `#/components/schemas/Error${route.family}` } } },
    };
  }
  return out;
}

export function buildOpenApi(routes: RouteDef[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const op: Json = {
      operationId: OPERATION_IDS[route.id] ?? route.id.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, ""),
      summary: route.summary,
      description: `${route.description}\n\nFamily ${route.family}.${route.authenticated ? "" : " No key needed; never metered."}${
        DEFAULT_PENDING_LIVE.has(route.id) ? " Live keys: pending licensing by default." : ""
      }`,
      tags: route.tags,
      "x-family": route.family,
      parameters: [...objectParams(route.params, "path"), ...objectParams(route.query, "query")],
      responses: responsesFor(route),
      ...(route.authenticated ? { security: [{ bearer: [] }, { apiKey: [] }, { serviceKey: [] }] } : { security: [] }),
    };
    if (route.body)
      op.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: op };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Options Market Research API",
      version: VERSION,
      description: `${REFERENCE_NOTES}\n\n${WEBHOOK_NOTES}`,
    },
    servers: [{ url: "/" }],
    paths,
    webhooks: webhookOperations(),
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "Authorization: Bearer svc_test_… | svc_live_… | svc_sk_live_…",
        },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        serviceKey: { type: "apiKey", in: "header", name: "X-Service-Key" },
      },
      schemas: {
        ErrorA: {
          type: "object",
          required: ["error"],
          additionalProperties: false,
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { enum: Object.keys(ERROR_STATUS) }, message: { type: "string" } },
            },
          },
        },
        ErrorB: {
          type: "object",
          required: ["error", "data", "disclaimer", "isMockData", "timestamp", "dataLabel"],
          properties: {
            error: { $ref: "#/components/schemas/ErrorA/properties/error" },
            data: { type: "null" },
            disclaimer: { type: "string", const: DISCLAIMER },
            isMockData: { type: "boolean" },
            timestamp: { type: "string", format: "date-time" },
            dataLabel: {
              enum: ["live", "delayed-15m", "end-of-day", "demo", "none"],
              description: "demo for test keys; none when no data was served.",
            },
          },
        },
        EnvelopeA: {
          type: "object",
          required: ["data", "meta", "disclaimer", "not_financial_advice"],
          properties: {
            data: { type: "object" },
            meta: {
              type: "object",
              required: ["endpoint", "plan", "environment", "data_freshness", "is_mock", "generated_at", "request_id"],
              properties: {
                endpoint: { type: "string", description: "Path of the request." },
                plan: {
                  enum: PLAN_SEED.map((p) => p.nameA),
                  description: "Plan of the calling key: Sandbox for test keys, the account's plan for live keys.",
                },
                environment: { enum: ["test", "live"] },
                data_freshness: {
                  enum: ["live", "delayed-15m", "end-of-day", "demo"],
                  description: "See Freshness labels.",
                },
                is_mock: { type: "boolean", description: "true for test keys (demo data)." },
                generated_at: { type: "string", format: "date-time", description: "UTC, milliseconds." },
                request_id: { type: "string", description: "Same as the X-Request-Id response header." },
              },
            },
            disclaimer: { type: "string", const: DISCLAIMER },
            not_financial_advice: { const: true },
          },
        },
        EnvelopeB: {
          type: "object",
          required: ["data", "disclaimer", "isMockData", "timestamp", "dataLabel"],
          properties: {
            data: { type: "object" },
            disclaimer: { type: "string", const: DISCLAIMER },
            isMockData: { type: "boolean" },
            timestamp: { type: "string", format: "date-time" },
            dataLabel: {
              enum: ["live", "delayed-15m", "end-of-day", "demo", "none"],
              description: "See Freshness labels; none on health.",
            },
          },
        },
      },
    },
    "x-plans": PLAN_SEED.map((p) => ({
      plan: p.nameA,
      tier: p.nameB,
      familyA: { perMinute: p.aPerMinute, perMonth: p.aPerMonth },
      familyB: {
        perMinute: p.bPerMinute,
        perDay: p.bPerDay,
        maxPayloadBytes: p.bMaxPayloadBytes,
        webhooks: p.webhooks,
      },
      liveData: p.dataEntitlement,
    })),
    "x-error-codes": Object.entries(ERROR_STATUS).map(([code, status]) => ({
      code,
      status,
      description: ERROR_DESCRIPTIONS[code as ErrorCode],
    })),
    "x-definitions": metricDefinitions(),
  };
}
