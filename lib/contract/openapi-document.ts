/** The shape of the API reference itself (GET /api/v1/openapi.json), so it is typed like every other answer. */
import { z } from "zod";
import { STREAM_LEASE_TTL_MS } from "./stream";

/** JSON Schema objects are open by nature: any keyword of draft 2020-12 may appear. */
const jsonSchema = z.record(z.string(), z.unknown()).describe("A JSON Schema (draft 2020-12) object.");
const media = z.record(z.string(), z.object({ schema: jsonSchema })).describe("By media type, e.g. application/json.");

const parameter = z.object({
  name: z.string(),
  in: z.enum(["path", "query", "header"]),
  required: z.boolean(),
  description: z.string().optional(),
  schema: jsonSchema,
  example: z.union([z.string(), z.number()]).optional(),
});

const headerRef = z.object({ $ref: z.string() }).describe("A header under components.headers.");

const operation = z.object({
  operationId: z.string().describe("A method name for generated clients; webhook events' end in Webhook."),
  summary: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  "x-family": z.enum(["A", "B"]).optional().describe("The route family; absent on webhook events."),
  parameters: z.array(parameter),
  requestBody: z.object({ required: z.boolean(), content: media }).optional(),
  responses: z
    .record(
      z.string(),
      z.object({
        description: z.string(),
        headers: z.record(z.string(), headerRef).optional().describe("By header name."),
        content: media.optional(),
      }),
    )
    .describe("By status code."),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
});

const pathItem = z.record(z.string(), operation).describe("Operations by lower-case HTTP method.");

export const openApiDocument = z.object({
  openapi: z.literal("3.1.0"),
  info: z.object({
    title: z.string(),
    version: z.string(),
    description: z.string(),
    license: z.object({ name: z.string(), identifier: z.string().describe("SPDX: LicenseRef-… (proprietary).") }),
    contact: z.object({ name: z.string() }),
  }),
  servers: z.array(z.object({ url: z.string() })),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(z.string(), pathItem).describe("By path template, e.g. /api/v1/ticker/{symbol}/summary."),
  webhooks: z.record(z.string(), pathItem).describe("The signed deliveries the service sends, by event type."),
  components: z.object({
    headers: z.record(z.string(), z.object({ description: z.string(), schema: jsonSchema })),
    securitySchemes: z.record(
      z.string(),
      z.object({
        type: z.enum(["http", "apiKey"]),
        scheme: z.string().optional(),
        in: z.string().optional(),
        name: z.string().optional(),
        description: z.string().optional(),
      }),
    ),
    schemas: z.record(z.string(), jsonSchema),
  }),
  "x-plans": z.array(
    z.object({
      plan: z.string(),
      tier: z.string(),
      familyA: z.object({ perMinute: z.number(), perMonth: z.number() }),
      familyB: z.object({
        perMinute: z.number(),
        perDay: z.number(),
        maxPayloadBytes: z.number(),
        webhooks: z.boolean(),
        streamsPerKey: z
          .number()
          .describe(
            `Concurrent live streams (GET /api/v1/stream) a key may hold open, counted across every server process sharing the database; a stream of a process that died stops counting within ${STREAM_LEASE_TTL_MS / 1000} s.`,
          ),
      }),
      liveData: z.string(),
    }),
  ),
  "x-error-codes": z.array(z.object({ code: z.string(), status: z.number(), description: z.string() })),
  "x-definitions": z
    .record(z.string(), z.record(z.string(), z.string()))
    .describe("Definitions of every published number, by topic, then by name."),
});

export type OpenApiDocument = z.output<typeof openApiDocument>;
