/**
 * Issue 30 item 2: a password-reset completion checks its token before it pays for argon2, hashing is gated per
 * process (ARGON2_CONCURRENCY running, ARGON2_QUEUE waiting), and completions are limited per client address and per
 * live token. Real PostgreSQL; the gate is filled with real held tasks.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { newOwner } from "../helpers/portal-domain";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { resetPasswordByToken, startPasswordReset } from "../../lib/domain/user-credentials";
import { DomainError } from "../../lib/domain/errors";
import { PORTAL_LIMITS } from "../../lib/domain/portal-limits";
import { ARGON2_CONCURRENCY, ARGON2_QUEUE, hashGate, hashPassword } from "../../lib/crypto/password";
import { GateFull } from "../../lib/util/gate";

let t: TestDatabase;
const bogus = () => randomBytes(32).toString("base64url");
const NEW_PW = "a fresh passphrase 7";

/** Holds every running slot of the gate until `release` is called. */
function holdGate(): { release: () => void; held: Promise<unknown>[] } {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const held = Array.from({ length: ARGON2_CONCURRENCY }, () => hashGate.run(() => gate));
  return { release, held };
}

const codeOf = (err: unknown) => (err instanceof DomainError ? err.code : String(err));

describe("password hashing gate and reset completion", () => {
  before(async () => {
    t = await createTestDatabase("hashgate");
    await seedReferenceData(t.db, endpointCatalogue());
  });
  after(async () => t?.drop());

  it("refuses a bogus token without hashing: it answers while every hashing slot is taken", async () => {
    const { release, held } = holdGate();
    try {
      assert.equal(hashGate.load.running, ARGON2_CONCURRENCY);
      for (let i = 0; i < 20; i++) {
        await assert.rejects(resetPasswordByToken(t.db, bogus(), NEW_PW, { ip: "::1" }), (err) => {
          assert.equal(codeOf(err), "invalid");
          assert.equal((err as DomainError).detail.field, "token");
          return true;
        });
      }
      assert.equal(hashGate.load.waiting, 0, "no completion queued for a hash");
    } finally {
      release();
      await Promise.all(held);
    }
  });

  it("past the waiting room the gate refuses at once instead of queueing without bound", async () => {
    const { release, held } = holdGate();
    const queued = Array.from({ length: ARGON2_QUEUE }, () => hashPassword("queued passphrase").catch((e) => e));
    try {
      assert.equal(hashGate.load.waiting, ARGON2_QUEUE);
      await assert.rejects(hashPassword("one too many"), GateFull);
    } finally {
      release();
      await Promise.all(held);
    }
    const results = await Promise.all(queued);
    assert.ok(
      results.every((r) => typeof r === "string" && r.startsWith("$argon2id$")),
      "the queued hashes ran",
    );
  });

  it("limits completions per client address, bogus tokens included, and says how long to wait", async () => {
    const ip = `203.0.113.${1 + Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < PORTAL_LIMITS.resetCompletePerAddress; i++)
      await assert.rejects(resetPasswordByToken(t.db, bogus(), NEW_PW, { ip }), (e) => codeOf(e) === "invalid");
    await assert.rejects(resetPasswordByToken(t.db, bogus(), NEW_PW, { ip }), (err) => {
      assert.equal(codeOf(err), "rate_limited");
      assert.match((err as Error).message, /password-reset attempts from this address/);
      assert.ok(((err as DomainError).detail.retryAfterSeconds ?? 0) > 0);
      return true;
    });
  });

  it("a live token pays for at most PORTAL_LIMITS.resetCompletePerToken hashes, and works once", async () => {
    const owner = await newOwner(t.db);
    const started = await startPasswordReset(t.db, owner.email);
    assert.ok(started);
    const perToken = PORTAL_LIMITS.resetCompletePerToken;
    const tries = 3 * perToken;
    const { release, held } = holdGate(); // hashing waits, so every attempt sees the token still live
    let settled = 0;
    const outcomes = Array.from({ length: tries }, () =>
      resetPasswordByToken(t.db, started.token, NEW_PW, { ip: "::1" })
        .then(
          () => "ok",
          (e) => codeOf(e),
        )
        .finally(() => settled++),
    );
    try {
      for (let i = 0; i < 200 && (settled < tries - perToken || hashGate.load.waiting < perToken); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal(hashGate.load.waiting, perToken, "only the token's budget queued for a hash");
      assert.equal(settled, tries - perToken);
    } finally {
      release();
      await Promise.all(held);
    }
    const all = await Promise.all(outcomes);
    assert.equal(all.filter((o) => o === "ok").length, 1, all.join(","));
    assert.equal(all.filter((o) => o === "rate_limited").length, tries - perToken, all.join(","));
    assert.equal(all.filter((o) => o === "invalid").length, perToken - 1, all.join(","));
  });
});
