/** JSON Schema and parameters for the reference, from the zod schemas that validate requests (lib/api/openapi.ts). */
import { z } from "zod";
import type { OpenApiDocument } from "../contract/openapi-document";
import { DOCUMENTED_NUMBER } from "../contract/documented-number";
import { exampleNamed } from "./input-examples";

type Json = Record<string, unknown>;
type OpenApiOperation = OpenApiDocument["paths"][string][string];

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const out = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
    override: asInteger,
  }) as Json;
  delete out.$schema;
  return out;
}

/** A number validated from its query-string text is documented as the number (lib/contract/documented-number.ts). */
function asInteger(ctx: { jsonSchema: Record<string, unknown> }): void {
  const bounds = ctx.jsonSchema[DOCUMENTED_NUMBER] as Json | undefined;
  if (!bounds) return;
  const { description } = ctx.jsonSchema;
  for (const k of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[k];
  Object.assign(ctx.jsonSchema, bounds, description === undefined ? {} : { description });
}

/** A parameter's example in its schema's type (query examples are written as text). */
function typedExample(example: string, schema: Json): string | number {
  const numeric = schema.type === "integer" || schema.type === "number";
  return numeric && Number.isFinite(Number(example)) ? Number(example) : example;
}

/** Parameters with the same examples the 400 messages quote (lib/api/input-examples.ts); a test calls each of them. */
export function objectParams(schema: z.ZodType | undefined, where: "path" | "query"): OpenApiOperation["parameters"] {
  if (!schema) return [];
  const s = jsonSchema(schema, "input");
  const props = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set((s.required as string[]) ?? []);
  return Object.entries(props).map(([name, p]) => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    description: p.description as string | undefined,
    schema: p,
    ...(exampleNamed(name, where) !== undefined ? { example: typedExample(exampleNamed(name, where) ?? "", p) } : {}),
  }));
}
