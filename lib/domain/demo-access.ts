/**
 * The demo account and its test key for a local install. The full key is shown once like any key; for the local
 * demo only, it is also kept in the data directory (mode 0600) so `npm start` can print it again on later runs.
 */
import "server-only";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys } from "../../db/schema";
import { digestKey } from "../keys/format";
import { createAccount, findAccountByEmail } from "./accounts";
import { createKey } from "./keys";
import { systemActor } from "./audit";

export const DEMO_EMAIL = "demo@example.com";

export async function ensureDemoAccess(
  db: Db,
  dataDir: string,
): Promise<{ email: string; key: string; keyId: string }> {
  const account =
    (await findAccountByEmail(db, DEMO_EMAIL)) ??
    (await createAccount(db, { email: DEMO_EMAIL, plan: "sandbox", name: "Demo" }, systemActor("demo")));
  const file = join(dataDir, "demo-key.json");
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { key: string; id: string };
    const [row] = await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.digest, digestKey(saved.key)),
          eq(apiKeys.status, "active"),
          eq(apiKeys.accountId, account.accountId),
        ),
      );
    if (row) return { email: DEMO_EMAIL, key: saved.key, keyId: row.id };
  }
  const created = await createKey(
    db,
    { accountId: account.accountId, env: "test", name: "Demo test key" },
    systemActor("demo"),
  );
  writeFileSync(file, JSON.stringify({ key: created.key, id: created.id }), { mode: 0o600 });
  return { email: DEMO_EMAIL, key: created.key, keyId: created.id };
}
