/** Turns path, query and body into validated handler inputs, or an invalid_request naming the field. */
import type { z } from "zod";
import { BodyError, parseBoundedJson, readBoundedText } from "../http/bounded-body";
import { ApiError, invalid } from "./errors";
import { exampleFor } from "./input-examples";
import { controlCharAt } from "../util/input-rule";
import type { RouteDef } from "./route";

/** What a failed check expected, in the API's words rather than the validator's. */
function expected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? "is required"
        : `must be ${issue.expected === "number" ? "a number" : issue.expected === "array" ? "a list" : issue.expected === "object" ? "an object" : `a ${issue.expected}`}`;
    case "too_small":
      return issue.origin === "string"
        ? `must have at least ${issue.minimum} character${Number(issue.minimum) === 1 ? "" : "s"}`
        : issue.origin === "array"
          ? `must list at least ${issue.minimum} item${Number(issue.minimum) === 1 ? "" : "s"}`
          : `must be ${issue.inclusive === false ? "greater than" : "at least"} ${issue.minimum}`;
    case "too_big":
      return issue.origin === "string"
        ? `must have at most ${issue.maximum} characters`
        : issue.origin === "array"
          ? `must list at most ${issue.maximum} items`
          : `must be ${issue.inclusive === false ? "less than" : "at most"} ${issue.maximum}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_union": {
      if (issue.input === null || typeof issue.input !== "object" || Array.isArray(issue.input))
        return "must be a JSON object";
      // Several accepted shapes: describe what the closest one (fewest problems) still needs.
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]?.[0];
      return closest
        ? `${closest.path.length ? `'${closest.path.join(".")}' ` : ""}${expected(closest)}`
        : "does not match any accepted shape";
    }
    case "invalid_format":
      return issue.message && !issue.message.startsWith("Invalid") ? issue.message : `is not a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

function firstIssue(where: "path" | "query" | "body", error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue.path.length
    ? issue.path
        .map((p) => (typeof p === "number" ? `[${p}]` : String(p)))
        .join(".")
        .replace(/\.\[/g, "[")
    : "";
  if (issue.code === "unrecognized_keys") {
    return invalid(
      `Unknown ${where} field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}. The reference lists the fields each route takes.`,
    );
  }
  const example = exampleFor(field, where);
  const sample =
    example === undefined
      ? ""
      : where === "body"
        ? ` Example: "${field.split(".").pop()}": ${example}.`
        : ` Example: ${field}=${example}.`;
  return invalid(`${where}${field ? ` field '${field}'` : ""} ${expected(issue)}.${sample}`.replace(/\.\./g, "."));
}

/** The input rule (lib/util/input-rule.ts), before any schema: a control character anywhere is a 400 naming where. */
function clean<T>(where: "path" | "query" | "body", value: T): T {
  const at = controlCharAt(value);
  if (at !== null) throw invalid(`${where}${at ? ` field '${at}'` : ""} contains a control character (such as NUL).`);
  return value;
}

export function parseParams(route: RouteDef, raw: Record<string, string>): unknown {
  clean("path", raw);
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
  clean("query", raw);
  if (!route.query) {
    const names = Object.keys(raw);
    if (names.length) throw invalid(`Unknown query parameter${names.length > 1 ? "s" : ""}: ${names.join(", ")}.`);
    return {};
  }
  const result = route.query.safeParse(raw);
  if (!result.success) throw firstIssue("query", result.error);
  return result.data;
}

/** The body as text, at most `limit` bytes (the one bounded reader); too large → 413, unreadable → 400. */
export async function readBody(request: Request, limit: number): Promise<string> {
  try {
    return await readBoundedText(request, limit);
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    throw err.status === 413
      ? new ApiError("payload_too_large", `The request body exceeds this plan's maximum payload of ${limit} bytes.`)
      : invalid(err.message);
  }
}

export function parseJsonBody(route: RouteDef, request: Request, text: string): unknown {
  if (!route.body) return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type))
    throw invalid("The request body must be JSON, sent with Content-Type: application/json.");
  if (text.trim() === "") throw invalid("The request body is not valid JSON.");
  let json: unknown;
  try {
    json = parseBoundedJson(text);
  } catch (err) {
    throw invalid(err instanceof BodyError ? err.message : "The request body is not valid JSON.");
  }
  const result = route.body.safeParse(clean("body", json));
  if (!result.success) throw firstIssue("body", result.error);
  return result.data;
}
