import { index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { users } from "./users";

/**
 * Failed sign-ins per e-mail: consecutive failures and the last attempt's time. Past a few free attempts each one waits
 * a delay that doubles per failure (lib/domain/signin-throttle.ts); a correct password clears the row.
 */
export const signinThrottle = pgTable("signin_throttle", {
  email: text("email").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastAttemptAt: tstz("last_attempt_at"),
});

/**
 * Portal sessions, checked on every portal request: the cookie carries the id, this row says whether it still works
 * (ended by sign-out, "sign out everywhere", a password change; 24 h idle; 7 days absolute). Only the id's SHA-256 is stored.
 */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    idDigest: text("id_digest").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: tstz("last_seen_at").notNull().defaultNow(),
    endedAt: tstz("ended_at"),
    endedReason: text("ended_reason"),
    ip: text("ip"),
    userAgent: text("user_agent"),
  },
  (t) => [index("portal_sessions_user_idx").on(t.userId)],
);
