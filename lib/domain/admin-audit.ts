/**
 * The audit log as admins read it: filters (actor by e-mail or id, action, target, time range), keyset pagination, a
 * row stream, and people shown by e-mail.
 */
import "server-only";
import { and, desc, eq, gte, ilike, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditLog, users } from "../../db/schema";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { auditQuery } from "../contract/admin-inputs";

export interface AuditFilter {
  actor?: string;
  action?: string;
  target?: string;
  from?: string;
  to?: string;
}

export interface AuditRow {
  id: number;
  at: string;
  actorType: string;
  actorId: string;
  /** The e-mail of the person (user or admin actor); null for operators, the system and keys. */
  actorEmail: string | null;
  /** Who, as a person reads it: the e-mail, otherwise type:id (e.g. cli:operator). */
  actor: string;
  action: string;
  target: string;
  accountId: string | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  requestId: string | null;
  ip: string | null;
}

export const AUDIT_PAGE_MAX = 200;

function time(value: string | undefined, field: string): Date | undefined {
  if (value === undefined || value === "") return undefined;
  const d = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(d.getTime()))
    throw new DomainError("invalid", `${field} is a date or time (ISO 8601), e.g. 2026-01-31 or 2026-01-31T12:00Z.`, {
      field,
    });
  return d;
}

const auditTexts = auditQuery.pick({ actor: true, action: true, target: true });

/** The WHERE clause of a filter, validated (a bad filter is a clear error, never an empty page). */
export function auditWhere(filter: AuditFilter): SQL | undefined {
  const texts = parseInput(auditTexts, { actor: filter.actor, action: filter.action, target: filter.target });
  const [actor, action, target] = [texts.actor, texts.action, texts.target].map((v) => v || undefined);
  const from = time(filter.from, "from");
  const to = time(filter.to, "to");
  if (from && to && from > to) throw new DomainError("invalid", "from is after to.", { field: "from" });
  const parts: SQL[] = [];
  if (actor) parts.push(actorWhere(actor));
  if (action)
    parts.push(action.endsWith(".") ? ilike(auditLog.action, `${escapeLike(action)}%`) : eq(auditLog.action, action));
  // An account id also finds everything recorded against that account (its keys, members, plan).
  if (target)
    parts.push(
      isUuid(target)
        ? (or(eq(auditLog.target, target), eq(auditLog.accountId, target)) as SQL)
        : eq(auditLog.target, target),
    );
  if (from) parts.push(gte(auditLog.createdAt, from));
  if (to) parts.push(lte(auditLog.createdAt, to));
  return parts.length ? and(...parts) : undefined;
}

const PEOPLE = ["user", "admin"] as const;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * An actor filter: an e-mail (optionally after user: or admin:) finds that person's entries, case-insensitively;
 * type:id (admin:<user id>, admin:cli:operator) one actor; anything else an actor id of any type.
 */
function actorWhere(actor: string): SQL {
  const colon = actor.indexOf(":");
  const type = colon > 0 ? actor.slice(0, colon) : "";
  const typed = ["user", "admin", "system", "key"].includes(type);
  const id = typed ? actor.slice(colon + 1) : actor;
  if (EMAIL.test(id)) {
    const byEmail = sql`${auditLog.actorId} in (select ${users.id}::text from ${users} where lower(${users.email}) = ${id.toLowerCase()})`;
    return and(
      typed ? eq(auditLog.actorType, type as "user") : inArray(auditLog.actorType, [...PEOPLE]),
      byEmail,
    ) as SQL;
  }
  return typed
    ? (and(eq(auditLog.actorType, type as "user"), eq(auditLog.actorId, id)) as SQL)
    : eq(auditLog.actorId, actor);
}

/** The e-mail of each person actor's user id (ids that are not a user's are left out). */
export async function actorEmails(db: Db, ids: Iterable<string>): Promise<Map<string, string>> {
  const uuids = [...new Set(ids)].filter(isUuid);
  if (uuids.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, uuids));
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** "type:id" as stored in endpoint_licensing.updated_by and the like, shown as the person's e-mail when it is one. */
export function actorLabel(typeAndId: string | null, emails: Map<string, string>): string | null {
  if (typeAndId === null) return null;
  const [type, ...rest] = typeAndId.split(":");
  const email = (PEOPLE as readonly string[]).includes(type) ? emails.get(rest.join(":")) : undefined;
  return email ?? typeAndId;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export function toAuditRow(r: typeof auditLog.$inferSelect, email: string | null = null): AuditRow {
  const after = r.after as { reason?: unknown } | null;
  return {
    id: r.id,
    at: r.createdAt.toISOString(),
    actorType: r.actorType,
    actorId: r.actorId,
    actorEmail: email,
    actor: email ?? `${r.actorType}:${r.actorId}`,
    action: r.action,
    target: r.target,
    accountId: r.accountId,
    before: r.before,
    after: r.after,
    reason: typeof after?.reason === "string" ? after.reason : null,
    requestId: r.requestId,
    ip: r.ip,
  };
}

/** Rows newest first, each with its person actor's e-mail. */
async function selectRows(db: Db, where: SQL | undefined, limit: number): Promise<AuditRow[]> {
  const rows = await db
    .select({ entry: auditLog, email: users.email })
    .from(auditLog)
    .leftJoin(users, and(inArray(auditLog.actorType, [...PEOPLE]), sql`${users.id}::text = ${auditLog.actorId}`))
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(limit);
  return rows.map((r) => toAuditRow(r.entry, r.email ?? r.entry.actorEmail));
}

function cursorId(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  if (!/^\d{1,15}$/.test(cursor))
    throw new DomainError("invalid", "cursor is not one this page gave.", { field: "cursor" });
  return Number(cursor);
}

/** A page of rows, newest first; nextCursor continues after the last one (null at the end). */
export async function queryAudit(
  db: Db,
  filter: AuditFilter & { cursor?: string; limit?: number },
): Promise<{ rows: AuditRow[]; nextCursor: string | null }> {
  const limit = filter.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > AUDIT_PAGE_MAX)
    throw new DomainError("invalid", `limit is 1–${AUDIT_PAGE_MAX}.`, { field: "limit" });
  const before = cursorId(filter.cursor);
  const where = and(auditWhere(filter), before === undefined ? undefined : lt(auditLog.id, before));
  const rows = await selectRows(db, where, limit + 1);
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? String(page.at(-1)?.id) : null };
}

/** Every matching row, newest first, in batches (the CSV export streams these). */
export async function* auditRows(db: Db, filter: AuditFilter, batch = 500): AsyncGenerator<AuditRow> {
  const where = auditWhere(filter);
  let before: number | undefined;
  for (;;) {
    const rows = await selectRows(db, and(where, before === undefined ? undefined : lt(auditLog.id, before)), batch);
    for (const r of rows) yield r;
    if (rows.length < batch) return;
    before = rows.at(-1)?.id;
  }
}

export const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "actorType",
  "actorId",
  "actorEmail",
  "action",
  "target",
  "accountId",
  "before",
  "after",
  "reason",
  "requestId",
  "ip",
] as const;

/** A cell a spreadsheet would run as a formula is quoted with a leading apostrophe. */
const cell = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

/** One CSV record's values (JSON for before/after). */
export function auditCsvRecord(r: AuditRow): string[] {
  return [
    String(r.id),
    r.at,
    r.actorType,
    r.actorId,
    r.actorEmail ?? "",
    r.action,
    r.target,
    r.accountId ?? "",
    r.before === null ? "" : JSON.stringify(r.before),
    r.after === null ? "" : JSON.stringify(r.after),
    r.reason ?? "",
    r.requestId ?? "",
    r.ip ?? "",
  ].map(cell);
}
