import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { interner } from "../../lib/util/interner";

describe("interner (one object per value in a loaded market)", () => {
  it("answers the same Date for the same instant, from a number or the database's text", () => {
    const k = interner();
    const a = k.date(1_764_000_000_000);
    assert.equal(k.date("1764000000000"), a);
    assert.equal(a.getTime(), 1_764_000_000_000);
    assert.notEqual(k.date(1_764_000_000_001), a);
  });

  it("answers the first of equal strings", () => {
    const k = interner();
    const first = ["2026-12-04"].join("");
    const second = ["2026-12", "-04"].join("");
    assert.equal(k.text(first), first);
    assert.equal(k.text(second), first);
    assert.equal(k.text("2026-12-11"), "2026-12-11");
  });
});
