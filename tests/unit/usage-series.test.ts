import { test } from "node:test";
import assert from "node:assert/strict";
import { seriesRows } from "../../lib/portal/usage-series";
import type { UsageCell } from "../../lib/domain/usage";

const cells: UsageCell[] = [
  {
    bucket: "2026-11-22",
    endpointId: "GET /api/v1/ticker/{symbol}/summary",
    family: "A",
    statusClass: "2xx",
    calls: 3,
  },
  { bucket: "2026-11-22", endpointId: "GET /api/v1/data/yield-curve", family: "B", statusClass: "2xx", calls: 2 },
  { bucket: "2026-11-23", endpointId: "GET /api/v1/data/yield-curve", family: "B", statusClass: "4xx", calls: 4 },
];

test("every bucket gets a row, zeros included, one column per group, and totals add up", () => {
  const days = ["2026-11-21", "2026-11-22", "2026-11-23"];
  const byFamily = seriesRows(days, cells, "family");
  assert.deepEqual(byFamily.groups, ["Family A", "Family B"]);
  assert.deepEqual(byFamily.rows, [
    { bucket: "2026-11-21", "Family A": 0, "Family B": 0 },
    { bucket: "2026-11-22", "Family A": 3, "Family B": 2 },
    { bucket: "2026-11-23", "Family A": 0, "Family B": 4 },
  ]);
  assert.deepEqual(byFamily.totals, { "Family A": 3, "Family B": 6 });
  assert.equal(byFamily.total, 9);
  assert.deepEqual(seriesRows(days, cells, "status").totals, { "2xx": 5, "4xx": 4 });
  assert.deepEqual(seriesRows(days, cells, "route").groups, [
    "GET /api/v1/data/yield-curve",
    "GET /api/v1/ticker/{symbol}/summary",
  ]);
});

test("cells outside the buckets are ignored; no cells gives no groups", () => {
  assert.equal(seriesRows(["2026-11-23"], cells, "family").total, 4);
  assert.deepEqual(seriesRows(["2026-11-01"], [], "route"), {
    rows: [{ bucket: "2026-11-01" }],
    groups: [],
    totals: {},
    total: 0,
  });
});
