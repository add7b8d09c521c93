/** Accounts and keys for tests, made through the same domain functions the CLI and portal use. */
import { randomBytes } from "node:crypto";
import type { Db } from "../../lib/db/client";
import { createAccount } from "../../lib/domain/accounts";
import { createKey } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";

export async function accountWithKey(
  db: Db,
  opts: { plan?: string; env?: "test" | "live"; style?: "standard" | "sk" } = {},
) {
  const email = `u_${randomBytes(5).toString("hex")}@example.com`;
  const account = await createAccount(db, { email, plan: opts.plan ?? "sandbox" }, systemActor("test"));
  const key = await createKey(
    db,
    { accountId: account.accountId, env: opts.env ?? "test", style: opts.style },
    systemActor("test"),
  );
  return { email, accountId: account.accountId, keyId: key.id, key: key.key };
}
