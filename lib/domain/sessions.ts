/**
 * Portal sessions that end. The session cookie carries a random id; this table says whether it still works. A session
 * ends on sign-out, on "sign out everywhere", when the password changes (all others) or is reset (all), after
 * SESSION_IDLE_SECONDS without a request and SESSION_ABSOLUTE_SECONDS after sign-in, whatever the cookie says.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { portalSessions } from "../../db/schema";

export const SESSION_ABSOLUTE_SECONDS = 7 * 24 * 3600;
export const SESSION_IDLE_SECONDS = 24 * 3600;
/** last_seen_at is written at most this often per session (a page view makes several lookups). */
const TOUCH_EVERY_MS = 60_000;

type Runner = Pick<Db, "insert" | "update" | "select" | "execute">;

export type SessionEndReason =
  | "sign_out"
  | "sign_out_everywhere"
  | "password_change"
  | "password_reset"
  | "deactivated"
  | "removed"
  | "account_deleted";

const digest = (id: string) => createHash("sha256").update(id).digest("hex");

/** Starts a session for a user who just signed in; the returned id goes into the cookie (only its digest is stored). */
export async function startSession(
  db: Runner,
  userId: string,
  origin: { ip?: string; userAgent?: string } = {},
  now = new Date(),
): Promise<string> {
  const id = randomBytes(32).toString("base64url");
  await db.insert(portalSessions).values({
    idDigest: digest(id),
    userId,
    createdAt: now,
    lastSeenAt: now,
    ip: origin.ip ?? null,
    userAgent: origin.userAgent?.slice(0, 512) ?? null,
  });
  return id;
}

/**
 * Whether the session still works for this user; a live one is touched (sliding idle timeout, capped by the absolute
 * lifetime). An expired one is marked ended so it never comes back.
 */
export async function checkSession(db: Runner, id: string, userId: string, now = new Date()): Promise<boolean> {
  if (typeof id !== "string" || id.length < 20 || id.length > 100) return false;
  const [row] = await db
    .select()
    .from(portalSessions)
    .where(and(eq(portalSessions.idDigest, digest(id)), eq(portalSessions.userId, userId)));
  if (!row || row.endedAt) return false;
  const t = now.getTime();
  const expired =
    t - row.createdAt.getTime() >= SESSION_ABSOLUTE_SECONDS * 1000 ||
    t - row.lastSeenAt.getTime() >= SESSION_IDLE_SECONDS * 1000;
  if (expired) {
    await db
      .update(portalSessions)
      .set({ endedAt: now, endedReason: "expired" })
      .where(and(eq(portalSessions.idDigest, row.idDigest), isNull(portalSessions.endedAt)));
    return false;
  }
  if (t - row.lastSeenAt.getTime() >= TOUCH_EVERY_MS)
    await db.update(portalSessions).set({ lastSeenAt: now }).where(eq(portalSessions.idDigest, row.idDigest));
  return true;
}

/** Ends one session (sign-out). */
export async function endSession(db: Runner, id: string, reason: SessionEndReason = "sign_out", now = new Date()) {
  await db
    .update(portalSessions)
    .set({ endedAt: now, endedReason: reason })
    .where(and(eq(portalSessions.idDigest, digest(id)), isNull(portalSessions.endedAt)));
}

/** Ends every session of a user, except `keep` (the session asking, on a password change). Answers how many ended. */
export async function endUserSessions(
  db: Runner,
  userId: string,
  reason: SessionEndReason,
  opts: { keep?: string; now?: Date } = {},
): Promise<number> {
  const where = [eq(portalSessions.userId, userId), isNull(portalSessions.endedAt)];
  if (opts.keep) where.push(ne(portalSessions.idDigest, digest(opts.keep)));
  const ended = await db
    .update(portalSessions)
    .set({ endedAt: opts.now ?? new Date(), endedReason: reason })
    .where(and(...where))
    .returning({ id: portalSessions.idDigest });
  return ended.length;
}

/** Removes sessions that ended or expired more than a day ago (housekeeping; safe to run at any time). */
export async function pruneSessions(db: Runner, now = new Date()): Promise<void> {
  await db.execute(
    sql`delete from portal_sessions where coalesce(ended_at, last_seen_at + make_interval(secs => ${SESSION_IDLE_SECONDS})) < ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`,
  );
}
