/** Endpoint licensing states (docs/api-contract.md §5): every change has a reason and an audit record. */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { endpointLicensing, endpoints } from "../../db/schema";
import { recordAudit, type Actor } from "./audit";
import { DomainError } from "./errors";
import { parseInput } from "./input";
import { licensingStateBody } from "../contract/admin-inputs";

export interface EndpointView {
  id: string;
  method: string;
  path: string;
  family: "A" | "B";
  licensing: { test: string; live: string };
}

export async function listEndpoints(db: Db): Promise<EndpointView[]> {
  const rows = await db
    .select({
      id: endpoints.id,
      method: endpoints.method,
      path: endpoints.path,
      family: endpoints.family,
      env: endpointLicensing.env,
      state: endpointLicensing.state,
    })
    .from(endpoints)
    .leftJoin(endpointLicensing, eq(endpointLicensing.endpointId, endpoints.id))
    .orderBy(asc(endpoints.path), asc(endpoints.method));
  const byId = new Map<string, EndpointView>();
  for (const r of rows) {
    const view = byId.get(r.id) ?? {
      id: r.id,
      method: r.method,
      path: r.path,
      family: r.family,
      licensing: { test: "pending_licensing", live: "pending_licensing" },
    };
    if (r.env) view.licensing[r.env] = r.state ?? "pending_licensing";
    byId.set(r.id, view);
  }
  return [...byId.values()];
}

export async function setLicensing(
  db: Db,
  input: {
    path: string;
    method?: string;
    env: "test" | "live";
    state: "enabled" | "pending_licensing";
    reason: string;
  },
  actor: Actor,
): Promise<EndpointView[]> {
  const { reason } = parseInput(licensingStateBody, { env: input.env, state: input.state, reason: input.reason });
  return db.transaction(async (tx) => {
    const filter = input.method
      ? and(eq(endpoints.path, input.path), eq(endpoints.method, input.method.toUpperCase()))
      : eq(endpoints.path, input.path);
    const targets = await tx.select({ id: endpoints.id }).from(endpoints).where(filter);
    if (targets.length === 0) throw new DomainError("not_found", `no endpoint with path ${input.path}`);
    for (const { id } of targets) {
      const [before] = await tx
        .select({ state: endpointLicensing.state })
        .from(endpointLicensing)
        .where(and(eq(endpointLicensing.endpointId, id), eq(endpointLicensing.env, input.env)))
        .for("update");
      await tx
        .insert(endpointLicensing)
        .values({
          endpointId: id,
          env: input.env,
          state: input.state,
          reason,
          updatedBy: `${actor.type}:${actor.id}`,
          updatedAt: new Date(),
        })
        .onConflictDoUpdate({
          target: [endpointLicensing.endpointId, endpointLicensing.env],
          set: { state: input.state, reason, updatedBy: `${actor.type}:${actor.id}`, updatedAt: new Date() },
        });
      await recordAudit(tx, {
        actor,
        action: "endpoint.set_licensing",
        target: `endpoint:${id}`,
        before: { env: input.env, state: before?.state ?? null },
        after: { env: input.env, state: input.state, reason },
      });
    }
    const all = await listEndpoints(tx);
    return all.filter((e) => targets.some((t) => t.id === e.id));
  });
}
