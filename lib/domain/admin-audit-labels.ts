/**
 * What the audit page shows instead of raw ids: a target's e-mail, account name or key prefix (the id stays on hover),
 * and the known actions and person actors its filter fields offer.
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `user:<id>` → e-mail, `account:<id>` → account name, `key:<id>` → name and prefix; others are left out. */
export async function targetLabels(db: Db, targets: Iterable<string>): Promise<Map<string, string>> {
  const ids = { user: new Set<string>(), account: new Set<string>(), key: new Set<string>() };
  for (const t of targets) {
    const [kind, id] = [t.slice(0, t.indexOf(":")), t.slice(t.indexOf(":") + 1)];
    if ((kind === "user" || kind === "account") && UUID.test(id)) ids[kind].add(id);
    if (kind === "key" && /^key_[0-9A-Za-z]{1,40}$/.test(id)) ids.key.add(id);
  }
  const list = (s: Set<string>) =>
    sql.join(
      [...s, ""].map((v) => sql`${v}`),
      sql`, `,
    );
  const rows = await db.execute<{ target: string; label: string }>(sql`
    select 'user:' || id::text as target, email as label from users where id::text in (${list(ids.user)})
    union all
    select 'account:' || id::text, name from accounts where id::text in (${list(ids.account)})
    union all
    select 'key:' || id, name || ' (' || prefix || '…)' from api_keys where id in (${list(ids.key)})`);
  return new Map([...rows].map((r) => [r.target, r.label]));
}

/** The actions recorded so far and the e-mails of people who acted (for the filter fields' suggestions). */
export async function auditVocabulary(db: Db): Promise<{ actions: string[]; actors: string[] }> {
  const [actions, actors] = await Promise.all([
    db.execute<{ action: string }>(sql`select distinct action from audit_log order by action limit 500`),
    db.execute<{ email: string }>(sql`
      select distinct u.email from audit_log l join users u on u.id::text = l.actor_id
      where l.actor_type in ('user', 'admin') order by u.email limit 500`),
  ]);
  return { actions: [...actions].map((r) => r.action), actors: [...actors].map((r) => r.email) };
}
