import { test } from "node:test";
import assert from "node:assert/strict";
import { open, seal } from "../../lib/crypto/secret-box";
import { businessDaysBetween } from "../../lib/domain/business-days";

const SECRET = "unit-test-secret-0123456789";

test("seal/open round-trips, with a fresh IV each time", () => {
  const a = seal("svc_sk_live_abc", SECRET, "p", "row-1");
  const b = seal("svc_sk_live_abc", SECRET, "p", "row-1");
  assert.notEqual(a, b);
  assert.ok(!a.includes("abc"));
  assert.equal(open(a, SECRET, "p", "row-1"), "svc_sk_live_abc");
});

test("open refuses another secret, purpose, row or an altered text", () => {
  const sealed = seal("secret value", SECRET, "p", "row-1");
  assert.throws(() => open(sealed, "another-secret-0123456789", "p", "row-1"));
  assert.throws(() => open(sealed, SECRET, "q", "row-1"));
  assert.throws(() => open(sealed, SECRET, "p", "row-2"));
  const parts = sealed.split(".");
  parts[3] = parts[3].slice(0, -2) + (parts[3].endsWith("AA") ? "BB" : "AA");
  assert.throws(() => open(parts.join("."), SECRET, "p", "row-1"));
  assert.throws(() => open("garbage", SECRET, "p", "row-1"));
  assert.throws(() => seal("x", "short", "p", "row-1"), /too short/);
});

test("business days count Monday to Friday dates after the start (UTC)", () => {
  const d = (s: string) => new Date(`${s}T12:00:00Z`);
  assert.equal(businessDaysBetween(d("2026-11-23"), d("2026-11-23")), 0); // Monday, same day
  assert.equal(businessDaysBetween(d("2026-11-23"), d("2026-11-24")), 1);
  assert.equal(businessDaysBetween(d("2026-11-20"), d("2026-11-23")), 1); // Friday → Monday
  assert.equal(businessDaysBetween(d("2026-11-21"), d("2026-11-22")), 0); // Saturday → Sunday
  assert.equal(businessDaysBetween(d("2026-11-19"), d("2026-11-26")), 5); // Thursday → next Thursday
});
