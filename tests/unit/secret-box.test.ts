import { test } from "node:test";
import assert from "node:assert/strict";
import { createDecipheriv, hkdfSync } from "node:crypto";

process.env.AUTH_SECRET = "unit-test-secret-0123456789abcdef";
const { open, seal } = await import("../../lib/crypto/secret-box");

test("seal/open round-trips, and the sealed text contains no part of the plaintext", () => {
  const key = "svc_test_abcdefghijklmnopqrstuvwxyz0123";
  const sealed = seal(key, "playground-key");
  assert.match(sealed, /^v1\.[\w-]{16}\.[\w-]+\.[\w-]{22}$/);
  assert.ok(!sealed.includes("abcdefgh"));
  assert.equal(open(sealed, "playground-key"), key);
  assert.equal(open(seal("", "x"), "x"), "");
  assert.equal(open(seal("ünïcode ✓", "x"), "x"), "ünïcode ✓");
});

test("it is AES-256-GCM under HKDF-SHA256(AUTH_SECRET, purpose), with a fresh IV each time", () => {
  const sealed = seal("hello", "access-request-key");
  assert.notEqual(sealed, seal("hello", "access-request-key"));
  const [, iv, body, tag] = sealed.split(".").map((p, i) => (i === 0 ? Buffer.alloc(0) : Buffer.from(p, "base64url")));
  const key = Buffer.from(hkdfSync("sha256", process.env.AUTH_SECRET!, "options-research/secret-box/v1", "access-request-key", 32));
  const d = createDecipheriv("aes-256-gcm", key, iv);
  d.setAAD(Buffer.from("access-request-key"));
  d.setAuthTag(tag);
  assert.equal(Buffer.concat([d.update(body), d.final()]).toString(), "hello");
});

test("a wrong purpose, a changed secret or a tampered value does not open", () => {
  const sealed = seal("secret", "playground-key");
  assert.throws(() => open(sealed, "access-request-key"), /does not open/);
  const parts = sealed.split(".");
  const body = Buffer.from(parts[2], "base64url");
  body[0] ^= 1;
  assert.throws(() => open([parts[0], parts[1], body.toString("base64url"), parts[3]].join("."), "playground-key"), /does not open/);
  assert.throws(() => open("v1.abc", "playground-key"), /not a sealed value/);
  assert.throws(() => open("garbage", "playground-key"), /not a sealed value/);
  const saved = process.env.AUTH_SECRET;
  process.env.AUTH_SECRET = "another-secret-0123456789abcdef";
  try {
    assert.throws(() => open(sealed, "playground-key"), /does not open/);
  } finally {
    process.env.AUTH_SECRET = saved;
  }
});

test("without AUTH_SECRET nothing is sealed", () => {
  const saved = process.env.AUTH_SECRET;
  delete process.env.AUTH_SECRET;
  try {
    assert.throws(() => seal("x", "playground-key"), /AUTH_SECRET is not set/);
  } finally {
    process.env.AUTH_SECRET = saved;
  }
});
