import "server-only";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appEnv } from "../env";
import { log } from "../log";
import { sealPlainSigningSecrets } from "../webhooks/secret-store";
import { openDatabase, type Database } from "./client";

const MIGRATIONS_LOCK = 727_001; // advisory lock id: several processes may start at once on one database
// Resolved from the working directory: every entry point (next start, tsx scripts) runs from the project root.
export const migrationsFolder = join(process.cwd(), "db/migrations");

/**
 * Applies committed migrations, serialised across processes by a session advisory lock on one reserved connection, then
 * the data step SQL cannot do: sealing webhook signing secrets still stored in clear (migration 0015; needs AUTH_SECRET).
 */
export async function runMigrations(database: Database, folder = migrationsFolder): Promise<void> {
  const conn = await database.sql.reserve();
  try {
    await conn`select pg_advisory_lock(${MIGRATIONS_LOCK})`;
    try {
      await migrate(database.db, { migrationsFolder: folder });
      await sealStoredSecrets(database);
    } finally {
      await conn`select pg_advisory_unlock(${MIGRATIONS_LOCK})`;
    }
  } finally {
    conn.release();
  }
}

/** What the application's own role may do to the audit trail and the schema (docs/security.md). */
export interface AppRole {
  name: string;
  /** Superuser, or owner (or member of the owner) of audit_log: it could truncate it or switch its triggers off. */
  canDefeatAudit: boolean;
  /** It can apply migrations: it owns the schema's tables, or there are none yet. */
  canMigrate: boolean;
}

export async function appRole(database: Database): Promise<AppRole> {
  const [row] = await database.sql<{ name: string; superuser: boolean; owns_audit: boolean | null }[]>`
    select current_user as name, r.rolsuper as superuser,
      (select pg_has_role(current_user, c.relowner, 'USAGE') from pg_class c
        where c.oid = to_regclass('public.audit_log')) as owns_audit
    from pg_roles r where r.rolname = current_user`;
  const owns = row.owns_audit === true;
  return {
    name: row.name,
    canDefeatAudit: row.superuser || owns,
    canMigrate: row.superuser || row.owns_audit !== false,
  };
}

/**
 * Brings the schema up to date before a process serves: as the owner role when DATABASE_OWNER_URL is set (its pool is
 * closed afterwards), else on the application's own pool when its role can migrate. A role that cannot (a member of
 * ora_app without the owner's URL) only checks that nothing is pending, and refuses to start if something is.
 */
export async function prepareSchema(
  database: Database,
  ownerUrl: string | undefined = appEnv().DATABASE_OWNER_URL,
  folder = migrationsFolder,
): Promise<AppRole> {
  if (ownerUrl) {
    const owner = openDatabase(ownerUrl, { max: 2 });
    try {
      await runMigrations(owner, folder);
    } finally {
      await owner.close();
    }
  }
  const role = await appRole(database);
  if (!ownerUrl) {
    if (role.canMigrate) await runMigrations(database, folder);
    else await assertMigrated(database, role.name, folder);
  }
  if (role.canDefeatAudit) {
    if (ownerUrl)
      throw new Error(
        `DATABASE_URL's role ${role.name} owns audit_log or is a superuser although DATABASE_OWNER_URL is set: connect the application as a login that is a member of ora_app (docs/security.md)`,
      );
    if (appEnv().NODE_ENV === "production")
      log.warn(
        "the application's database role can empty or alter audit_log; set DATABASE_OWNER_URL and run the application as a member of ora_app (docs/security.md)",
        { role: role.name },
      );
  }
  return role;
}

/** Every migration the folder holds is applied (drizzle records each by its journal time). */
async function assertMigrated(database: Database, role: string, folder: string): Promise<void> {
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  const rows = await database.sql<{ applied: string | null }[]>`
    select max(created_at)::text as applied from drizzle.__drizzle_migrations`.catch((err: Error) => {
    throw new Error(
      `the role ${role} cannot apply migrations nor read which were applied (${err.message}): set DATABASE_OWNER_URL to the schema owner's URL (docs/security.md)`,
    );
  });
  const applied = Number(rows[0]?.applied ?? 0);
  const pending = journal.entries.filter((e) => e.when > applied).length;
  if (pending > 0)
    throw new Error(
      `${pending} database migration(s) are pending and the role ${role} cannot apply them: set DATABASE_OWNER_URL to the schema owner's URL (docs/security.md)`,
    );
}

async function sealStoredSecrets(database: Database): Promise<void> {
  const secret = process.env.AUTH_SECRET;
  if (!secret) return; // a process without AUTH_SECRET can neither seal nor sign: the next one with it seals them
  const sealed = await sealPlainSigningSecrets(database.sql, secret);
  if (sealed > 0) log.info("webhook signing secrets sealed", { webhooks: sealed });
}
