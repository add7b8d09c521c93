/**
 * The local demo's way in: the first start creates the demo user with a generated password that signs in, later starts
 * print the same password and key, a password the user set themselves is never replaced, and a production start
 * (DATABASE_URL without DEMO_ACCOUNT=on) creates nothing.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { endpointCatalogue } from "../../lib/api/routes";
import { seedReferenceData } from "../../lib/domain/seed";
import { DEMO_EMAIL, ensureDemoAccess } from "../../lib/domain/demo-access";
import { demoAccessOnStart } from "../../lib/domain/demo-startup";
import { findAccountByEmail } from "../../lib/domain/accounts";
import { setPassword } from "../../lib/domain/user-credentials";
import { systemActor } from "../../lib/domain/audit";
import { verifyCredentials } from "../../lib/domain/users";
import { digestKey } from "../../lib/keys/format";

let t: TestDatabase;
let dataDir: string;

describe("demo access on start", () => {
  before(async () => {
    t = await createTestDatabase("demo_access");
    await seedReferenceData(t.db, endpointCatalogue());
    dataDir = mkdtempSync(join(tmpdir(), "orapi-demo-"));
  });
  after(async () => {
    await t?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("a production start creates no account, key or password", async () => {
    assert.equal(await demoAccessOnStart(t.db, dataDir, { embedded: false }), null);
    assert.equal(await findAccountByEmail(t.db, DEMO_EMAIL), null);
  });

  it("the first start makes a verified demo user whose printed password signs in; later starts print the same", async () => {
    const first = await demoAccessOnStart(t.db, dataDir, { embedded: true });
    assert.ok(first?.password);
    assert.ok(first.password.length >= 20);
    const user = await verifyCredentials(t.db, DEMO_EMAIL, first.password);
    assert.equal(user?.email, DEMO_EMAIL);
    const [row] = await t.sql`select email_verified, password_hash from users where email = ${DEMO_EMAIL}`;
    assert.ok(row.email_verified, "demo@example.com cannot receive mail: verified from the start");
    assert.ok(!String(row.password_hash).includes(first.password));
    const [key] = await t.sql`select digest, env from api_keys where id = ${first.keyId}`;
    assert.deepEqual([key.digest, key.env], [digestKey(first.key), "test"]);
    assert.equal(statSync(join(dataDir, "demo-key.json")).mode & 0o777, 0o600);

    const again = await ensureDemoAccess(t.db, dataDir);
    assert.deepEqual(again, first);
  });

  it("a password the demo user set is kept: nothing is printed for it and the new one still signs in", async () => {
    const { userId } = (await findAccountByEmail(t.db, DEMO_EMAIL))!;
    await setPassword(t.db, userId, "my own password 123", systemActor("test"));
    const later = await ensureDemoAccess(t.db, dataDir);
    assert.equal(later.password, null);
    assert.ok(await verifyCredentials(t.db, DEMO_EMAIL, "my own password 123"));
    assert.doesNotMatch(readFileSync(join(dataDir, "demo-key.json"), "utf8"), /password/);
  });
});
