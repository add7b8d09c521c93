/**
 * Turns a validator issue into a 400 message in the API's own words: which field, what is expected, an example.
 * Raw validator text never reaches a caller.
 */
import type { z } from "zod";

export type Where = "path" | "query" | "body";

/** An example value per field name, as the caller would write it in that place. */
const EXAMPLES: Record<string, string> = {
  symbol: "AAPL", ticker: "AAPL", symbols: "AAPL,MSFT,SPY", min_premium: "100000", type: "sweep",
  since: "2026-11-20T14:30:00Z", limit: "50", webhookId: "wh_0123456789abcdef01234567",
  strategy: "\"long_call\"", expiry: "\"2026-12-18\" (listed expiries: GET /api/v1/symbols/AAPL/expiries)",
  strikes: "[190] (listed strikes: GET /api/v1/symbols/AAPL/expiries)", quantity: "1",
  url: "\"https://example.com/hook\"", events: "[\"no_trade.decision_changed\"]", ivRankAbove: "80", ivRankBelow: "20",
  description: "\"earnings watch\"",
};
const BODY_SYMBOL: Record<string, string> = { symbol: "\"AAPL\"", symbols: "[\"AAPL\", \"SPY\"]" };

export function exampleFor(where: Where, field: string): string {
  const name = field.replace(/\[\d+\]$/, "");
  const ex = where === "body" ? (BODY_SYMBOL[name] ?? EXAMPLES[name]) : EXAMPLES[name];
  if (!ex) return "";
  if (where === "query") return `e.g. ${name}=${ex}`;
  if (where === "body") return `e.g. "${name}": ${ex}`;
  return `e.g. ${ex}`;
}

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`);
const TYPE_WORDS: Record<string, string> = { string: "string", number: "number", int: "integer", boolean: "true or false", array: "array", object: "JSON object" };

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return article(typeof value);
}

function sizeWord(origin: string | undefined, n: number | bigint): string {
  if (origin === "string") return `${n} character${n === 1 ? "" : "s"}`;
  if (origin === "array" || origin === "set") return `${n} item${n === 1 ? "" : "s"}`;
  return String(n);
}

/** What the field expects, from one issue; `value` is what the caller sent at that path (undefined when absent). */
function expectation(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `is required: expected ${article(TYPE_WORDS[issue.expected] ?? issue.expected)}`;
      return `expected ${article(TYPE_WORDS[issue.expected] ?? issue.expected)}, got ${typeOf(value)}`;
    case "too_small":
      return `expected ${issue.inclusive === false ? "more than" : "at least"} ${sizeWord(issue.origin, issue.minimum as number)}`;
    case "too_big":
      return `expected ${issue.inclusive === false ? "less than" : "at most"} ${sizeWord(issue.origin, issue.maximum as number)}`;
    case "invalid_value":
      return `expected one of ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      if (issue.message && !/^invalid/i.test(issue.message)) return issue.message; // our own wording
      return issue.format === "url" ? "expected an absolute URL" : `expected the ${issue.format} format`;
    case "not_multiple_of":
      return `expected a multiple of ${issue.divisor}`;
    default:
      return issue.message ?? "is not valid";
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const p of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

export const fieldName = (path: readonly PropertyKey[]) =>
  path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");

/** "query field 'limit': expected at most 500, e.g. limit=50." */
export function describeIssue(where: Where, issue: z.core.$ZodIssue, input: unknown, allowed: string[]): string {
  if (issue.code === "unrecognized_keys") {
    const what = where === "query" ? "query parameter" : `${where} field`;
    return `Unknown ${what}${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}. ${allowedList(where, allowed)}`;
  }
  const field = fieldName(issue.path);
  const expected = expectation(issue, valueAt(input, issue.path));
  const example = field && !expected.includes("e.g.") ? exampleFor(where, field) : "";
  return `${where} field '${field || "(root)"}': ${expected}${example ? `, ${example}` : ""}.`;
}

export const allowedList = (where: Where, allowed: string[]) =>
  allowed.length ? `This route takes the ${where} field${allowed.length > 1 ? "s" : ""} ${allowed.join(", ")}.` : `This route takes no ${where} fields.`;
