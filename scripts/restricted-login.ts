/**
 * `npm start` with a DATABASE_URL that owns the schema (or is a superuser) and no DATABASE_OWNER_URL: the launcher
 * migrates as that role, then makes sure a login in ora_app exists for this database (`ora_web_<database>`, password
 * kept in DATA_DIR, mode 0600) and serves as it, with the given URL as DATABASE_OWNER_URL: the app never runs as the
 * audit trail's owner (issue 30 item 7, docs/security.md "Database roles"). A role that cannot create logins is refused
 * in production with the operator's steps; elsewhere it serves as before, with a warning.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "../lib/db/client";
import { appRole } from "../lib/db/migrate";
import { errorFields, log } from "../lib/log";

export interface RestrictedLogin {
  role: string;
  /** DATABASE_URL for the server: the same database as this login. */
  url: string;
  /** DATABASE_OWNER_URL for the server: the URL it was given. */
  ownerUrl: string;
}

/** A role name for the database: letters, digits and _, at most 63 bytes (PostgreSQL's limit). */
export const loginName = (database: string) =>
  `ora_web_${database.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`.slice(0, 63);

function storedPassword(dataDir: string, role: string): string {
  const file = join(dataDir, `db-login-${role}`);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const password = randomBytes(24).toString("base64url");
  writeFileSync(file, password, { mode: 0o600 });
  return password;
}

async function ensureLogin(database: Database, role: string, password: string): Promise<void> {
  // Identifiers and the password are [A-Za-z0-9_-] only (loginName, base64url): safe to write into the statement.
  const [exists] = await database.sql`select 1 from pg_roles where rolname = ${role}`;
  const options = `LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE INHERIT`;
  await database.sql.unsafe(exists ? `ALTER ROLE "${role}" WITH ${options}` : `CREATE ROLE "${role}" WITH ${options}`);
  await database.sql.unsafe(`GRANT ora_app TO "${role}"`);
}

/** The login to serve as, or null when DATABASE_URL is already restricted or DATABASE_OWNER_URL is set. */
export async function restrictedLogin(
  database: Database,
  url: string,
  dataDir: string,
  env: { ownerUrl?: string; production: boolean },
): Promise<RestrictedLogin | null> {
  if (env.ownerUrl) return null; // the operator runs two roles already; prepareSchema checks the application's
  const current = await appRole(database);
  if (!current.canDefeatAudit) return null;
  const target = new URL(url);
  const role = loginName(decodeURIComponent(target.pathname.slice(1)) || "postgres");
  try {
    await ensureLogin(database, role, storedPassword(dataDir, role));
  } catch (err) {
    const steps =
      "create a login in ora_app and set DATABASE_URL to it and DATABASE_OWNER_URL to the owner (docs/security.md)";
    if (env.production) throw new Error(`${current.name} cannot create the application's login (${err}): ${steps}`);
    log.warn(`serving as the schema's owner: ${steps}`, errorFields(err));
    return null;
  }
  target.username = role;
  target.password = storedPassword(dataDir, role);
  return { role, url: target.toString(), ownerUrl: url };
}
