/** Builds the OpenAPI 3.1 reference from the route table: the schemas that validate requests also document them. */
import { VERSION } from "../version";
import { PLAN_SEED } from "../domain/plans-catalogue";
import { DEFAULT_PENDING_LIVE } from "../domain/seed";
import { ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "./errors";
import type { RouteDef } from "./route";
import type { OpenApiDocument } from "../contract/openapi-document";
import { REFERENCE_NOTES, metricDefinitions } from "./reference-notes";
import { WEBHOOK_NOTES, webhookOperations } from "./webhook-reference";
import { IDEMPOTENCY_KEY_PARAMETER } from "./idempotency-reference";
import { IDEMPOTENT_METHODS } from "./idempotency";
import { headersFor, RESPONSE_HEADERS } from "./openapi-headers";
import { jsonSchema, objectParams } from "./openapi-schema";
import { envelopeSchemas, errorSchemas, securitySchemes } from "./openapi-components";

type Json = Record<string, unknown>;
type OpenApiOperation = OpenApiDocument["paths"][string][string];

/** The reference's tags, in reading order; the family each belongs to is said in the description. */
const TAGS = [
  {
    name: "Market analytics",
    description:
      "Scores, options flow and market-wide measures computed by the service. Ticker summary, signal score and " +
      "options flow are family A (`meta` envelope); yield curve, market sentiment, watchlist ranking and the daily " +
      "history of a symbol's published metrics (getHistory, getHistoryDay: a past day's numbers) are family B.",
  },
  {
    name: "Research",
    description: "Per-symbol research summary, no-trade analysis and structured strategy outputs. Family B.",
  },
  {
    name: "Alerts (webhooks)",
    description:
      "Register, manage and replay signed webhook deliveries (Pro (API Pro) and Enterprise (API Business); test keys of such accounts too). Family B.",
  },
  { name: "Discovery", description: "Which symbols, expiries and strikes a caller may ask about. Family B." },
  { name: "Service", description: "Health and this reference: no key, never metered." },
  { name: "Webhook events", description: "The signed deliveries the service sends to a registered webhook." },
];

/** Streams resume after the event a client last received. */
const LAST_EVENT_ID_PARAMETER = {
  name: "Last-Event-ID",
  in: "header" as const,
  required: false,
  description:
    "The id of the last event received: the stream first sends the stored events after it (kept 48 hours), then live ones.",
  schema: { type: "string", pattern: "^\\d{1,15}\\.\\d{1,3}$" },
  example: "1234.0",
};

/** The success body: the route's data inside its envelope, or the data itself (the reference). */
function successSchema(route: RouteDef): Json {
  const data = jsonSchema(route.response, "output");
  if (route.envelope === "none") return data;
  return {
    allOf: [
      { $ref: `#/components/schemas/Envelope${route.envelope}` },
      { type: "object", required: ["data"], properties: { data } },
    ],
  };
}

/** One response per status the route can answer; each error response names exactly the codes it carries. */
type Response = {
  description: string;
  headers: Record<string, { $ref: string }>;
  content?: Record<string, { schema: Json }>;
};

function responsesFor(route: RouteDef): Record<string, Response> {
  const success = route.successStatus ?? 200;
  const out: Record<string, Response> = {
    [String(success)]: {
      description: "Success",
      headers: headersFor(route, success),
      content: route.streams
        ? { "text/event-stream": { schema: jsonSchema(route.response, "output") } }
        : {
            "application/json": { schema: successSchema(route) },
            ...(route.textAnswer ? { [route.textAnswer.contentType]: { schema: { type: "string" } } } : {}),
          },
    },
  };
  if (success === 200 && route.method === "GET" && route.authenticated && !route.streams)
    out["304"] = {
      description: "Not modified: If-None-Match named the current ETag.",
      headers: headersFor(route, 304),
    };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of route.errors) {
    const status = ERROR_STATUS[code];
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_DESCRIPTIONS[c]}`).join(" "),
      headers: headersFor(route, status),
      content: {
        "application/json": {
          schema: {
            allOf: [
              { $ref: `#/components/schemas/Error${route.family}` },
              {
                type: "object",
                required: ["error"],
                properties: {
                  error: { type: "object", required: ["code"], properties: { code: { type: "string", enum: codes } } },
                },
              },
            ],
          },
        },
      },
    };
  }
  return out;
}

/** The operation's description ends with its family, its limits and whether live keys start pending licensing. */
function limitNotes(route: RouteDef): string {
  return [
    `Family ${route.family}.`,
    route.authenticated
      ? ` Limits: the per-minute burst per key; the ${route.family === "A" ? "monthly" : "daily"} quota per account and key environment, shared by all of the account's keys of that environment.`
      : " No key needed; never metered.",
    DEFAULT_PENDING_LIVE.has(route.id) ? " Live keys: pending licensing by default." : "",
  ].join("");
}

function operationFor(route: RouteDef): OpenApiOperation {
  const op: OpenApiOperation = {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n${limitNotes(route)}`,
    tags: route.tags,
    "x-family": route.family,
    parameters: [
      ...objectParams(route.params, "path"),
      ...objectParams(route.query, "query"),
      ...(IDEMPOTENT_METHODS.has(route.method) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
      ...(route.streams ? [LAST_EVENT_ID_PARAMETER] : []),
    ],
    responses: responsesFor(route),
    security: route.authenticated ? [{ bearer: [] }, { apiKey: [] }, { serviceKey: [] }] : [],
  };
  if (route.body)
    op.requestBody = { required: true, content: { "application/json": { schema: jsonSchema(route.body, "input") } } };
  return op;
}

/** Each plan's limits per family, as the pricing page states them. */
function planLimits(): OpenApiDocument["x-plans"] {
  return PLAN_SEED.map((p) => ({
    plan: p.nameA,
    tier: p.nameB,
    familyA: { perMinute: p.aPerMinute, perMonth: p.aPerMonth },
    familyB: {
      perMinute: p.bPerMinute,
      perDay: p.bPerDay,
      maxPayloadBytes: p.bMaxPayloadBytes,
      webhooks: p.webhooks,
      streamsPerKey: p.streamsPerKey,
    },
    liveData: p.dataEntitlement,
  }));
}

const errorCodes = (): OpenApiDocument["x-error-codes"] =>
  Object.entries(ERROR_STATUS).map(([code, status]) => ({
    code,
    status,
    description: ERROR_DESCRIPTIONS[code as ErrorCode],
  }));

export function buildOpenApi(routes: RouteDef[]): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes)
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method.toLowerCase()]: operationFor(route) };
  return {
    openapi: "3.1.0",
    info: {
      title: "Options Market Research API",
      version: VERSION,
      description: `${REFERENCE_NOTES}\n\n${WEBHOOK_NOTES}`,
      license: {
        name: "Proprietary: use under the service's Terms of Service (/terms)",
        identifier: "LicenseRef-Options-Research-Terms",
      },
      contact: { name: "Options Research API support (the portal's /docs)" },
    },
    tags: TAGS,
    servers: [{ url: "/" }],
    paths,
    webhooks: webhookOperations(),
    components: {
      headers: RESPONSE_HEADERS,
      securitySchemes: securitySchemes(),
      schemas: { ...errorSchemas(), ...envelopeSchemas() },
    },
    "x-plans": planLimits(),
    "x-error-codes": errorCodes(),
    "x-definitions": metricDefinitions(),
  };
}
