import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { keyEnv, tstz } from "./columns";
import { endpoints } from "./endpoints";

/** Licensing state of an endpoint per key environment (docs/api-contract.md §5). */
export const endpointLicensing = pgTable(
  "endpoint_licensing",
  {
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => endpoints.id),
    env: keyEnv("env").notNull(),
    state: text("state", { enum: ["enabled", "pending_licensing"] }).notNull(),
    reason: text("reason").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: tstz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.endpointId, t.env] })],
);
