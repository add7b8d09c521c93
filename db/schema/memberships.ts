import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { accounts } from "./accounts";
import { users } from "./users";

/** The roles a member holds in an account, most powerful first (lib/domain/roles.ts says what each may do). */
export const MEMBER_ROLES = ["owner", "admin", "developer", "viewer"] as const;

/** A person's role in an account (tenant); an account has exactly one owner (a unique partial index). */
export const memberships = pgTable(
  "memberships",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    /** Who invited the member (null for the account's creator and members from before invitations). */
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.accountId] }),
    index("memberships_account_idx").on(t.accountId),
    uniqueIndex("memberships_one_owner_idx").on(t.accountId).where(sql`role = 'owner'`),
  ],
);
