/**
 * The reference's definitions describe only fields the API returns: every top-level field a definition names for a
 * route exists in that route's response schema, and every `{ a, b, c }` item shape a definition spells out is exactly
 * the item schema's fields. (Component names such as momentum20d are definitions of values, not fields.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { z } from "zod";
import { schemas } from "../../lib/contract/responses";
import { definitions as signalDefinitions } from "../../lib/analytics/signal-score";
import { definitions as sentimentDefinitions, SENTIMENT_COMPONENTS } from "../../lib/analytics/market-sentiment";

const keysOf = (schema: z.ZodType): string[] => Object.keys((schema as z.ZodObject).shape).sort();
const itemOf = (schema: z.ZodType) => (schema as z.ZodArray<z.ZodType>).element;
/** The field names of the first `{ … }` list in a definition, e.g. "{ name, value (0.1), weight }" → name, value, weight. */
const braceFields = (text: string) =>
  (/\{([^}]*)\}/.exec(text)?.[1] ?? "")
    .replace(/\([^)]*\)/g, "")
    .split(",")
    .map((f) => f.trim().split(/[\s(]/)[0])
    .filter(Boolean)
    .sort();

function check(name: string, defs: Record<string, string>, schema: z.ZodObject, valueNames: readonly string[]) {
  const fields = keysOf(schema);
  for (const key of Object.keys(defs)) {
    if (valueNames.includes(key)) continue;
    assert.ok(fields.includes(key), `${name}: the reference defines '${key}', which the response does not have`);
    const listed = braceFields(defs[key]);
    if (listed.length)
      assert.deepEqual(keysOf(itemOf(schema.shape[key] as z.ZodType)), listed, `${name}: ${key}[] fields`);
  }
}

test("signal-score: components[].available/.directional, risk_points and risk_factors are in the response", () => {
  const componentNames = [
    "momentum20d",
    "trend50d",
    "flow_net_premium_share",
    "put_call_oi_ratio",
    "skew25d",
    "iv_rank",
    "liquidity",
    "summary",
  ];
  check("signal-score", signalDefinitions, schemas.signalScore, componentNames);
  assert.ok(keysOf(schemas.signalScore).includes("risk_points"));
  assert.deepEqual(keysOf(itemOf(schemas.signalScore.shape.risk_factors)), ["name", "points", "value"]);
});

test("market-sentiment: every defined field and the components' item shape are in the response", () => {
  // breadthFromBars defines how the breadth input is measured, not a field.
  check("market-sentiment", sentimentDefinitions, schemas.marketSentiment, [
    ...SENTIMENT_COMPONENTS.map((c) => c.name),
    "breadthFromBars",
  ]);
});
