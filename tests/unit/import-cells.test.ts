import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CellError,
  parseCount,
  parseIsoDate,
  parseNumber,
  parseRight,
  parseSymbol,
  parseTimestamp,
  parseUsDate,
} from "../../lib/market/import/cells";

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof CellError);
    return e.message;
  }
  assert.fail("expected a CellError");
};

test("symbols: case-insensitive in, upper-case out, class suffixes allowed", () => {
  assert.equal(parseSymbol("aapl", "symbol"), "AAPL");
  assert.equal(parseSymbol("brk.b", "symbol"), "BRK.B");
  assert.equal(parseSymbol("BF-B", "symbol"), "BF-B");
  for (const bad of ["TOOLONG", "^VIX", "A1", "BRK.BBB", "BRK.", ""])
    assert.throws(() => parseSymbol(bad, "symbol"), CellError, bad);
});

test("numbers are strict: no thousands separators, NaN, Infinity or units", () => {
  assert.equal(parseNumber("4.25", "x"), 4.25);
  assert.equal(parseNumber("-0.5", "x"), -0.5);
  assert.equal(parseNumber(".5", "x"), 0.5);
  assert.equal(parseNumber("1e-3", "x"), 0.001);
  for (const bad of ["1,000", "NaN", "Infinity", "4.25%", "$5", "1e999"])
    assert.throws(() => parseNumber(bad, "x"), CellError, bad);
  assert.equal(
    reason(() => parseNumber("", "bid")),
    "bid is required",
  );
});

test("counts are whole non-negative numbers", () => {
  assert.equal(parseCount("42355300", "volume"), 42355300);
  assert.equal(
    reason(() => parseCount("-5", "volume")),
    "volume (-5) is negative",
  );
  assert.equal(
    reason(() => parseCount("12.5", "volume")),
    "volume (12.5) is not a whole number",
  );
  assert.match(
    reason(() => parseCount("99999999999999999999", "volume")),
    /too large/,
  );
});

test("dates: YYYY-MM-DD and the Treasury's MM/DD/YYYY, real calendar days only", () => {
  assert.equal(parseIsoDate("2024-02-29", "d"), "2024-02-29");
  assert.equal(parseUsDate("12/31/2024", "Date"), "2024-12-31");
  assert.equal(parseUsDate("1/2/2025", "Date"), "2025-01-02");
  assert.equal(
    reason(() => parseUsDate("02/30/2024", "Date")),
    "Date (02/30/2024) is not a valid date",
  );
  assert.equal(
    reason(() => parseIsoDate("2023-02-29", "expiry")),
    "expiry (2023-02-29) is not a valid date",
  );
  assert.match(
    reason(() => parseUsDate("2024-12-31", "Date")),
    /MM\/DD\/YYYY/,
  );
});

test("timestamps need a zone; offsets and fractions are honoured (to the millisecond)", () => {
  assert.equal(parseTimestamp("2024-12-31T16:00:00-05:00", "t").toISOString(), "2024-12-31T21:00:00.000Z");
  assert.equal(parseTimestamp("2024-12-31T09:45:12.5-0500", "t").toISOString(), "2024-12-31T14:45:12.500Z");
  assert.equal(parseTimestamp("2024-12-31 14:31:05.123456Z", "t").toISOString(), "2024-12-31T14:31:05.123Z");
  assert.equal(parseTimestamp("2025-01-02T10:00+05:30", "t").toISOString(), "2025-01-02T04:30:00.000Z");
  assert.match(
    reason(() => parseTimestamp("2024-12-31T16:00:00", "as_of")),
    /has no time zone/,
  );
  assert.match(
    reason(() => parseTimestamp("2024-12-31T24:00:00Z", "as_of")),
    /not a valid time/,
  );
  assert.match(
    reason(() => parseTimestamp("12/31/2024 16:00", "as_of")),
    /not an ISO 8601 date-time/,
  );
});

test("rights: C, P, call, put in any case", () => {
  assert.deepEqual(
    ["C", "c", "Call", "CALL", "P", "put"].map((s) => parseRight(s, "right")),
    ["C", "C", "C", "C", "P", "P"],
  );
  assert.equal(
    reason(() => parseRight("X", "right")),
    "right (X) must be C, P, call or put",
  );
});
