import { test } from "node:test";
import assert from "node:assert/strict";
import { drawnLong } from "../../components/portal/usage/series-table";

test("a chart's table is wide for a few short series and long for many or long names", () => {
  assert.equal(drawnLong(["2xx", "4xx", "5xx"]), false, "status codes sit side by side");
  assert.equal(drawnLong(["Calls", "Errors"]), false);
  assert.equal(drawnLong(["a", "b", "c", "d", "e", "f", "g"]), true, "seven series");
  // The admin overview's routes: six of them wrapped a letter at a time at 375 px.
  const routes = ["/ticker/{symbol}/summary", "/signal-score/{symbol}", "/options-flow", "/data/yield-curve"];
  assert.equal(drawnLong(routes), true, "route names longer than 40 characters in all");
  assert.equal(drawnLong(["x".repeat(20), "y".repeat(20)]), false, "40 characters still fit");
  assert.equal(drawnLong(["x".repeat(20), "y".repeat(21)]), true);
});
