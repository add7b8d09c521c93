/** Turns path, query and body into validated handler inputs, or an invalid_request naming the field. */
import type { z } from "zod";
import { ApiError, invalid } from "./errors";
import type { RouteDef } from "./route";

function firstIssue(where: string, error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue.path.length ? issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(".[", "[") : "";
  if (issue.code === "unrecognized_keys") {
    return invalid(`Unknown ${where} field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}.`);
  }
  return invalid(`${where}${field ? ` field '${field}'` : ""}: ${issue.message}`);
}

export function parseParams(route: RouteDef, raw: Record<string, string>): unknown {
  if (!route.params) return {};
  const result = route.params.safeParse(raw);
  if (!result.success) throw firstIssue("path", result.error);
  return result.data;
}

export function parseQuery(route: RouteDef, search: URLSearchParams): unknown {
  const raw: Record<string, string> = {};
  for (const [name, value] of search) {
    if (name in raw) throw invalid(`Query parameter '${name}' is given more than once.`);
    raw[name] = value;
  }
  if (!route.query) {
    const names = Object.keys(raw);
    if (names.length) throw invalid(`Unknown query parameter${names.length > 1 ? "s" : ""}: ${names.join(", ")}.`);
    return {};
  }
  const result = route.query.safeParse(raw);
  if (!result.success) throw firstIssue("query", result.error);
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
  if (!/^application\/json\b/i.test(type)) throw invalid("The request body must be JSON, sent with Content-Type: application/json.");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid("The request body is not valid JSON.");
  }
  const result = route.body.safeParse(json);
  if (!result.success) throw firstIssue("body", result.error);
  return result.data;
}
