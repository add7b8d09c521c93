/**
 * Idempotent reference data: the plan catalogue, the endpoint catalogue and default licensing (docs/api-contract.md §3,
 * §5).
 */
import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { endpointLicensing, endpoints, plans } from "../../db/schema";
import { PLAN_SEED } from "./plans-catalogue";

export interface EndpointSeed {
  id: string;
  method: string;
  path: string;
  family: "A" | "B";
  summary: string;
}

/** Trade-level flow is the most licence-bound data: live options-flow starts pending (docs/api-contract.md §5). */
export const DEFAULT_PENDING_LIVE = new Set(["GET /api/v1/options-flow"]);

export async function seedReferenceData(db: Db, catalogue: EndpointSeed[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(plans).values(PLAN_SEED).onConflictDoNothing();
    await tx
      .insert(endpoints)
      .values(catalogue)
      .onConflictDoUpdate({
        target: endpoints.id,
        set: { summary: sql`excluded.summary`, family: sql`excluded.family` },
      });
    const states = catalogue.flatMap((e) =>
      (["test", "live"] as const).map((env) => {
        const pending = env === "live" && DEFAULT_PENDING_LIVE.has(e.id);
        return {
          endpointId: e.id,
          env,
          state: pending ? ("pending_licensing" as const) : ("enabled" as const),
          reason: pending ? "Default: trade-level options flow awaits a data-licensing review." : "Default state.",
          updatedBy: "system:seed",
        };
      }),
    );
    // Existing states are kept: admins' decisions survive restarts.
    await tx.insert(endpointLicensing).values(states).onConflictDoNothing();
  });
}
