import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { accounts } from "./accounts";
import { MEMBER_ROLES } from "./memberships";
import { users } from "./users";

/** An invitation to join an account: a single-use link (only the token's SHA-256 digest is stored) valid 7 days. */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accountId: uuid("account_id")
      .notNull()
      .references(() => accounts.id),
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    tokenDigest: text("token_digest").notNull().unique(),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: tstz("expires_at").notNull(),
    /** Set once, when the link is used (or the invitation withdrawn): a used link never works again. */
    usedAt: tstz("used_at"),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("invitations_account_idx").on(t.accountId, t.createdAt)],
);
