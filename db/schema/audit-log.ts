import { bigserial, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Append-only record of every state change made by a person, an operator, the system or a key (a trigger refuses updates and deletes). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorType: text("actor_type", { enum: ["user", "admin", "system", "key"] }).notNull(),
    actorId: text("actor_id").notNull(),
    /** The acting person's e-mail when known (a portal member, an operator), kept as it was at the time. */
    actorEmail: text("actor_email"),
    accountId: uuid("account_id"),
    action: text("action").notNull(),
    target: text("target").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    requestId: text("request_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_target_idx").on(t.target, t.createdAt),
    index("audit_log_account_idx").on(t.accountId, t.createdAt),
  ],
);
