/**
 * An account's "Allowed browser origins": the web pages (scheme://host[:port]) whose scripts may call the API with the
 * account's keys (CORS, docs/api-contract.md §11). The portal, and any other caller, change them only through here.
 */
import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { accounts } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { BROWSER_ORIGIN_MAX_LENGTH, browserOriginsBody } from "../contract/portal-inputs";
import { parseInput } from "./input";

/**
 * One origin as a browser sends it in `Origin`: http or https, a host, an optional port, nothing else (no path, query,
 * credentials or wildcard). Returns its canonical form (lower case, default port dropped) or throws `invalid`.
 */
export function normaliseOrigin(input: string): string {
  const text = input.trim();
  const refuse = (why: string): never => {
    throw new DomainError("invalid", `'${text.slice(0, 80)}' is not a browser origin: ${why}`, { field: "origins" });
  };
  if (text.length === 0 || text.length > BROWSER_ORIGIN_MAX_LENGTH)
    refuse(`give scheme://host[:port], at most ${BROWSER_ORIGIN_MAX_LENGTH} characters`);
  if (text.includes("*")) refuse("wildcards are not allowed; list each origin");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse("give scheme://host[:port]");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") refuse("the scheme must be http or https");
  if (url.username || url.password) refuse("no user name or password");
  if (url.search || url.hash || !/^[a-z]+:\/\/[^/]+\/?$/i.test(text)) refuse("no path, query or fragment");
  return url.origin;
}

/** The account's allowed origins, in the order they were saved. */
export async function browserOrigins(db: Db, accountId: string): Promise<string[]> {
  const [row] = await db.select({ origins: accounts.allowedOrigins }).from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw new DomainError("not_found", "no such account");
  return row.origins;
}

/** Replaces the account's allowed origins (validated, de-duplicated) and audits the change. */
export async function setBrowserOrigins(
  db: Db,
  input: { accountId: string; origins: readonly string[] },
  actor: Actor,
): Promise<string[]> {
  const origins = [...new Set(parseInput(browserOriginsBody, { origins: input.origins }).origins.map(normaliseOrigin))];
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ origins: accounts.allowedOrigins })
      .from(accounts)
      .where(eq(accounts.id, input.accountId))
      .for("update");
    if (!before) throw new DomainError("not_found", "no such account");
    await tx.update(accounts).set({ allowedOrigins: origins }).where(eq(accounts.id, input.accountId));
    await recordAudit(tx, {
      actor,
      accountId: input.accountId,
      action: "account.set_browser_origins",
      target: `account:${input.accountId}`,
      before: { origins: before.origins },
      after: { origins },
    });
    return origins;
  });
}

/** Every account's list, for the API's CORS check (accounts with none are left out). */
export async function allBrowserOrigins(db: Db): Promise<Map<string, string[]>> {
  const rows = await db
    .select({ id: accounts.id, origins: accounts.allowedOrigins })
    .from(accounts)
    .where(sql`cardinality(${accounts.allowedOrigins}) > 0`);
  return new Map(rows.map((r) => [r.id, r.origins]));
}
