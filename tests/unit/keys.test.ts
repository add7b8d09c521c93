import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { digestKey, displayPrefix, generateKey, parseKey } from "../../lib/keys/format";

test("generated keys have the contract's prefixes, 30 secret characters and a valid checksum", () => {
  for (const [kind, prefix] of [
    ["test", "svc_test_"],
    ["live", "svc_live_"],
    ["sk_live", "svc_sk_live_"],
  ] as const) {
    const g = generateKey(kind);
    assert.ok(g.key.startsWith(prefix));
    assert.match(g.key.slice(prefix.length), /^[0-9A-Za-z]{30}$/);
    assert.deepEqual(parseKey(g.key), { kind, digest: g.digest });
    assert.equal(g.prefix, g.key.slice(0, prefix.length + 4));
    assert.equal(g.digest, createHash("sha256").update(g.key).digest("hex"));
  }
});

test("at least 128 random bits: 24 base62 characters carry log2(62^24) ≈ 142.9 bits, and keys do not repeat", () => {
  assert.ok(24 * Math.log2(62) >= 128);
  const seen = new Set(Array.from({ length: 2000 }, () => generateKey("test").key));
  assert.equal(seen.size, 2000);
});

test("malformed keys are rejected without a lookup: wrong prefix, length, alphabet or checksum", () => {
  const { key } = generateKey("live");
  const last = key.at(-1)!;
  const flipped = key.slice(0, -1) + (last === "a" ? "b" : "a");
  for (const bad of [
    flipped,
    key.slice(0, -1),
    key + "x",
    key.replace("svc_live_", "svc_prod_"),
    key.replace("svc_live_", "sk_live_"),
    `${key.slice(0, 20)}-${key.slice(21)}`,
    "",
    "svc_test_",
    "Bearer " + key,
  ]) {
    assert.equal(parseKey(bad), null, bad);
  }
});

test("digest and display prefix are stable functions of the key", () => {
  const key = "svc_test_" + "A".repeat(30);
  assert.equal(digestKey(key), createHash("sha256").update(key).digest("hex"));
  assert.equal(displayPrefix(key), "svc_test_AAAA");
  assert.equal(displayPrefix("not a key"), "");
});
