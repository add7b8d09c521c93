/** Turns path, query and body into validated handler inputs, or an invalid_request naming the field. */
import type { z } from "zod";
import { ApiError, invalid } from "./errors";
import { allowedList, describeIssue, exampleFor, type Where } from "./input-messages";
import type { RouteDef } from "./route";

function firstIssue(where: Where, error: z.ZodError, input: unknown, schema: z.ZodType): ApiError {
  return invalid(describeIssue(where, error.issues[0], input, fieldsOf(schema)));
}

/** Field names of an object schema (for "this route takes …" in messages). */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** Enumerated query values are case-insensitive, like symbols: `type=Sweep` reads as `sweep`. */
function foldEnumCase(schema: z.ZodType, raw: Record<string, string>): void {
  const shape = (schema as { shape?: Record<string, z.ZodType> }).shape ?? {};
  for (const [name, value] of Object.entries(raw)) {
    let field = shape[name] as (z.ZodType & { unwrap?: () => z.ZodType; options?: unknown[] }) | undefined;
    while (field?.unwrap && !field.options) field = field.unwrap() as typeof field;
    const options = field?.options;
    if (!Array.isArray(options)) continue;
    const hit = options.find((o) => typeof o === "string" && o.toLowerCase() === value.toLowerCase());
    if (typeof hit === "string") raw[name] = hit;
  }
}

export function parseParams(route: RouteDef, raw: Record<string, string>): unknown {
  if (!route.params) return {};
  const result = route.params.safeParse(raw);
  if (!result.success) throw firstIssue("path", result.error, raw, route.params);
  return result.data;
}

export function parseQuery(route: RouteDef, search: URLSearchParams): unknown {
  const raw: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name in raw) throw invalid(`query field '${name}': given more than once; expected it at most once${exampleFor("query", name) ? `, ${exampleFor("query", name)}` : ""}.`);
    raw[name] = value;
  }
  if (!route.query) {
    const names = Object.keys(raw);
    if (names.length) throw invalid(`Unknown query parameter${names.length > 1 ? "s" : ""}: ${names.join(", ")}. ${allowedList("query", [])}`);
    return {};
  }
  foldEnumCase(route.query, raw);
  const result = route.query.safeParse(raw);
  if (!result.success) throw firstIssue("query", result.error, raw, route.query);
  return result.data;
}

/** Reads at most `limit` bytes; a longer body is refused without reading it all. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const tooLarge = (limit: number) =>
  new ApiError("payload_too_large", `The request body exceeds this plan's maximum payload of ${limit} bytes.`);

export function parseJsonBody(route: RouteDef, request: Request, text: string): unknown {
  if (!route.body) return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw invalid(`The request body must be JSON, sent with the header Content-Type: application/json. ${allowedList("body", fieldsOf(route.body))}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid(`The request body is not valid JSON: expected a JSON object, e.g. {"symbol": "AAPL", ...}. ${allowedList("body", fieldsOf(route.body))}`);
  }
  const result = route.body.safeParse(json);
  if (!result.success) throw firstIssue("body", result.error, json, route.body);
  return result.data;
}
