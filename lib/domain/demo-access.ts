/**
 * The demo account, its sign-in and its test key for a local install. The full key is shown once like any key; for the
 * local demo only, it is also kept in the data directory (mode 0600) with the demo user's generated password, so
 * `npm start` can print both again on later runs.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, users } from "../../db/schema";
import { verifyPassword } from "../crypto/password";
import { digestKey } from "../keys/format";
import { createAccount, findAccountByEmail } from "./accounts";
import { createKey } from "./keys";
import { systemActor } from "./audit";
import { setPassword } from "./user-credentials";

export const DEMO_EMAIL = "demo@example.com";

interface Saved {
  key?: string;
  id?: string;
  password?: string;
}

export interface DemoAccessInfo {
  email: string;
  key: string;
  keyId: string;
  /** The demo user's portal password; null once the user has set one of their own. */
  password: string | null;
}

/**
 * The password to print: generated and set when the demo user has none (first start, or a data directory from before
 * demo sign-in); the saved one while it still signs in; null when the user has changed it (theirs is never replaced).
 */
async function demoPassword(db: Db, userId: string, saved: string | undefined): Promise<string | null> {
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (user?.hash) return saved && (await verifyPassword(user.hash, saved)) ? saved : null;
  const password = `demo-${randomBytes(12).toString("base64url")}`;
  await setPassword(db, userId, password, systemActor("demo"));
  return password;
}

async function savedKey(db: Db, accountId: string, saved: Saved): Promise<{ key: string; keyId: string } | null> {
  if (!saved.key) return null;
  const [row] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.digest, digestKey(saved.key)), eq(apiKeys.status, "active"), eq(apiKeys.accountId, accountId)),
    );
  return row ? { key: saved.key, keyId: row.id } : null;
}

export async function ensureDemoAccess(db: Db, dataDir: string): Promise<DemoAccessInfo> {
  // demo@example.com cannot receive mail: the local demo's address counts as verified from the start.
  const account =
    (await findAccountByEmail(db, DEMO_EMAIL)) ??
    (await createAccount(
      db,
      { email: DEMO_EMAIL, plan: "sandbox", name: "Demo", emailVerified: new Date() },
      systemActor("demo"),
    ));
  const file = join(dataDir, "demo-key.json");
  const saved: Saved = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Saved) : {};
  const password = await demoPassword(db, account.userId, saved.password);
  let key = await savedKey(db, account.accountId, saved);
  if (!key) {
    const created = await createKey(
      db,
      { accountId: account.accountId, env: "test", name: "Demo test key" },
      systemActor("demo"),
    );
    key = { key: created.key, keyId: created.id };
  }
  writeFileSync(file, JSON.stringify({ key: key.key, id: key.keyId, ...(password ? { password } : {}) }), {
    mode: 0o600,
  });
  return { email: DEMO_EMAIL, ...key, password };
}
