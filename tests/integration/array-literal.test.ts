/**
 * lib/db/array-literal.ts builds the array parameters of the admission batch and the market bulk writes by hand: every
 * value must reach PostgreSQL unchanged, whatever characters a client-chosen X-Request-Id or an endpoint template holds.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { arrayLiteral } from "../../lib/db/array-literal";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";

let t: TestDatabase;
// Read back as JSON: the driver's own array parser would blur NULL elements, and this test is about what PostgreSQL stored.

describe("arrayLiteral", () => {
  before(async () => {
    t = await createTestDatabase("arrlit");
  });
  after(async () => t?.drop());

  it("round-trips text with quotes, backslashes, braces, commas, spaces, the word NULL, empty and non-ASCII strings, and NULLs", async () => {
    const values = [
      'a"b',
      "c\\d",
      '\\"',
      "{x,y}",
      "GET /api/v1/ticker/{symbol}/summary",
      "NULL",
      "",
      " lead",
      "ümlaut €",
      "req_01:ab.c-d",
      null,
    ];
    const [row] = await t.sql`select to_jsonb(${arrayLiteral(values)}::text[]) as v`;
    assert.deepEqual(row.v, values);
  });

  it("round-trips integers, floats, booleans and timestamps in their own types", async () => {
    const [row] = await t.sql`
      select to_jsonb(${arrayLiteral([1, -2, 2147483647])}::int[]) as i, to_jsonb(${arrayLiteral([0.1, -3.5e-7, 12.25])}::float8[]) as f,
        to_jsonb(${arrayLiteral([true, false, null])}::bool[]) as b,
        to_jsonb(${arrayLiteral(["2026-11-23T10:00:30.123Z"])}::timestamptz[]) as ts`;
    assert.deepEqual(row.i, [1, -2, 2147483647]);
    assert.deepEqual(row.f, [0.1, -3.5e-7, 12.25]);
    assert.deepEqual(row.b, [true, false, null]);
    assert.equal(new Date(row.ts[0]).toISOString(), "2026-11-23T10:00:30.123Z");
  });

  it("refuses a number PostgreSQL could not read back", () => {
    assert.throws(() => arrayLiteral([1, Number.NaN]), /non-finite/);
    assert.throws(() => arrayLiteral([Number.POSITIVE_INFINITY]), /non-finite/);
  });

  it("writes an empty array as {}", async () => {
    assert.equal(arrayLiteral([]), "{}");
    const [row] = await t.sql`select cardinality(${arrayLiteral([])}::text[]) as n`;
    assert.equal(row.n, 0);
  });
});
