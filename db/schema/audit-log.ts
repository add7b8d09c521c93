import { bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/** Append-only record of administrative changes (licensing, plans, key states). */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    subject: text("subject").notNull(),
    details: jsonb("details").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_subject_idx").on(t.subject, t.createdAt)],
);
