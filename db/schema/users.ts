import { boolean, index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { accounts } from "./accounts";

/** A person who signs in to the portal; belongs to one account. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull().unique(),
    name: text("name"),
    accountId: uuid("account_id").notNull().references(() => accounts.id),
    role: text("role", { enum: ["owner", "member"] }).notNull().default("owner"),
    isAdmin: boolean("is_admin").notNull().default(false),
    passwordHash: text("password_hash"),
    createdAt: createdAt(),
  },
  (t) => [index("users_account_idx").on(t.accountId)],
);
