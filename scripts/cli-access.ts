/** Operator CLI: API access requests (`access list|approve|reject`). Approval issues the svc_sk_live_ key; the CLI never prints it. */
import type { Db } from "../lib/db/client";
import type { Actor } from "../lib/domain/audit";
import { approveAccessRequest, listAllAccessRequests, rejectAccessRequest } from "../lib/domain/access-requests";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readAuthSecret } from "../lib/crypto/secret-box";
import { appEnv } from "../lib/env";

export const ACCESS_USAGE = `  access list
  access approve --id ID
  access reject --id ID --reason R`;

/** The app's AUTH_SECRET: the environment, else the one `npm start` keeps in the data directory (never generated here). */
function appAuthSecret(): string {
  const file = join(resolve(appEnv().DATA_DIR), "auth-secret");
  if (!process.env.AUTH_SECRET && existsSync(file)) return readFileSync(file, "utf8").trim();
  return readAuthSecret();
}

type Need = (name: string) => string;

/** Runs an `access` command, or returns undefined for an unknown one (the caller prints the usage). */
export async function runAccess(db: Db, action: string | undefined, need: Need, actor: Actor): Promise<unknown> {
  switch (action) {
    case "list":
      return listAllAccessRequests(db);
    case "approve":
      return approveAccessRequest(db, need("id"), actor, appAuthSecret());
    case "reject":
      return rejectAccessRequest(db, need("id"), need("reason"), actor);
    default:
      return undefined;
  }
}
