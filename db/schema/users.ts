import { boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** A person who signs in to the portal (Auth.js's user); belongs to accounts through memberships. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull().unique(),
    name: text("name"),
    emailVerified: timestamp("email_verified", { withTimezone: true, mode: "date" }),
    image: text("image"),
    isAdmin: boolean("is_admin").notNull().default(false),
    passwordHash: text("password_hash"),
    /** Version of the terms of use the user last accepted; a newer version asks again at sign-in. */
    termsVersion: integer("terms_version"),
    termsAcceptedAt: tstz("terms_accepted_at"),
    /** Sessions issued before this instant end (a password reset or an operator's set-password signs out everywhere). */
    passwordChangedAt: tstz("password_changed_at"),
    /** The account the portal acts on for a member of several (the account switcher); null means their first. */
    currentAccountId: uuid("current_account_id"),
    createdAt: createdAt(),
  },
  (t) => [index("users_created_idx").on(t.createdAt)],
);
