/** The reference's shared schemas: the two families' error bodies and success envelopes, and the key schemes. */
import { PLAN_SEED } from "../domain/plans-catalogue";
import { DISCLAIMER } from "../contract/disclaimer";
import type { OpenApiDocument } from "../contract/openapi-document";
import { ERROR_STATUS } from "./errors";

/** The three ways to send a key (docs/api-contract.md §2). */
export function securitySchemes(): OpenApiDocument["components"]["securitySchemes"] {
  return {
    bearer: {
      type: "http",
      scheme: "bearer",
      description: "Authorization: Bearer svc_test_… | svc_live_… | svc_sk_live_…",
    },
    apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
    serviceKey: { type: "apiKey", in: "header", name: "X-Service-Key" },
  };
}

/** The fields family B's answers carry beside their data or error (docs/api-contract.md §1). */
const familyBFields = (dataLabelDescription: string) => ({
  disclaimer: { type: "string", const: DISCLAIMER },
  isMockData: { type: "boolean", example: true },
  timestamp: { type: "string", format: "date-time" },
  dataLabel: {
    type: "string",
    enum: ["live", "delayed-15m", "end-of-day", "demo", "none"],
    description: dataLabelDescription,
    example: "demo",
  },
});

/** ErrorDetail and each family's error body (A: the error alone; B: the error inside family B's envelope). */
export function errorSchemas() {
  return {
    ErrorDetail: {
      type: "object",
      required: ["code", "message"],
      additionalProperties: false,
      properties: {
        code: { type: "string", enum: Object.keys(ERROR_STATUS), description: "See x-error-codes." },
        message: { type: "string", description: "Says what to fix; never a stack trace." },
      },
    },
    ErrorA: {
      type: "object",
      required: ["error"],
      additionalProperties: false,
      properties: { error: { $ref: "#/components/schemas/ErrorDetail" } },
    },
    ErrorB: {
      type: "object",
      required: ["error", "data", "disclaimer", "isMockData", "timestamp", "dataLabel"],
      properties: {
        error: { $ref: "#/components/schemas/ErrorDetail" },
        data: { type: "null" },
        ...familyBFields("demo for test keys; none when no data was served."),
      },
    },
  };
}

/** Each family's envelope around a route's `data`. */
export function envelopeSchemas() {
  return {
    EnvelopeA: {
      type: "object",
      description: "Family A's envelope around a route's `data` (each operation gives the data's schema).",
      required: ["meta", "disclaimer", "not_financial_advice"],
      properties: {
        meta: {
          type: "object",
          required: ["endpoint", "plan", "environment", "data_freshness", "is_mock", "generated_at", "request_id"],
          properties: {
            endpoint: { type: "string", description: "Path of the request." },
            plan: {
              type: "string",
              enum: PLAN_SEED.map((p) => p.nameA),
              description:
                "Plan whose limits the calling key has: Sandbox for test keys (whose features are the account plan's), the account's plan for live keys.",
              example: "Sandbox",
            },
            // The examples agree with each other (a test key's answer): never `live` beside `is_mock: true`.
            environment: { type: "string", enum: ["test", "live"], example: "test" },
            data_freshness: {
              type: "string",
              enum: ["live", "delayed-15m", "end-of-day", "demo"],
              description: "See Freshness labels.",
              example: "demo",
            },
            is_mock: { type: "boolean", description: "true for test keys (demo data).", example: true },
            generated_at: { type: "string", format: "date-time", description: "UTC, milliseconds." },
            request_id: { type: "string", description: "Same as the X-Request-Id response header." },
          },
        },
        disclaimer: { type: "string", const: DISCLAIMER },
        not_financial_advice: { type: "boolean", const: true },
      },
    },
    EnvelopeB: {
      type: "object",
      description: "Family B's envelope around a route's `data` (each operation gives the data's schema).",
      required: ["disclaimer", "isMockData", "timestamp", "dataLabel"],
      properties: familyBFields("See Freshness labels; none on health."),
    },
  };
}
