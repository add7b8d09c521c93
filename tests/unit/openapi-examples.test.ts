/**
 * The reference's examples agree with each other: no schema shows `data_freshness: live` (or `dataLabel: live`) beside
 * `is_mock: true` (`isMockData: true`), the pairing a test key can never receive. Walks every schema of the document.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { allRoutes } from "../../lib/api/routes";
import { buildOpenApi } from "../../lib/api/openapi";

type Node = Record<string, unknown>;

/** Every object schema with both properties of a pair, with the example each would show (explicit, else the first enum). */
function pairs(node: unknown, label: string, mock: string, found: { label: unknown; mock: unknown }[] = []) {
  if (Array.isArray(node)) for (const n of node) pairs(n, label, mock, found);
  else if (node && typeof node === "object") {
    const props = (node as Node).properties as Record<string, Node> | undefined;
    if (props?.[label] && props[mock]) {
      const shown = (p: Node) => p.example ?? (p.const as unknown) ?? (p.enum as unknown[] | undefined)?.[0];
      found.push({ label: shown(props[label]), mock: shown(props[mock]) ?? true });
    }
    for (const v of Object.values(node as Node)) pairs(v, label, mock, found);
  }
  return found;
}

test("no example pairs a live label with mock data, in either family's envelope", () => {
  const doc = buildOpenApi(allRoutes);
  const a = pairs(doc, "data_freshness", "is_mock");
  const b = pairs(doc, "dataLabel", "isMockData");
  assert.ok(a.length >= 1 && b.length >= 2, "both envelopes were found");
  for (const p of [...a, ...b]) {
    assert.deepEqual(p, { label: "demo", mock: true });
  }
});
