/** The admin console's licensing review: every endpoint × environment with who changed it, when and why. */
import "server-only";
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { auditLog, endpointLicensing, endpoints } from "../../db/schema";
import { actorEmails, actorLabel } from "./admin-audit";
import type { Actor } from "./audit";
import { DomainError } from "./errors";
import { setLicensing } from "./licensing";

import { LICENSING_ENVS, type LicensingEnv, type LicensingState } from "../shared/input-choices";
import { licensingChangeBody, type LicensingChangeInput } from "../contract/admin-inputs";
import { parseInput, type Unchecked } from "./input";

export interface LicensingRow {
  endpointId: string;
  method: string;
  path: string;
  family: "A" | "B";
  env: LicensingEnv;
  state: LicensingState;
  reason: string | null;
  /** The admin's e-mail, or type:id for an operator (cli:…) or the system. */
  changedBy: string | null;
  changedAt: string | null;
}

export async function listLicensing(db: Db): Promise<LicensingRow[]> {
  const eps = await db
    .select()
    .from(endpoints)
    .orderBy(asc(endpoints.family), asc(endpoints.path), asc(endpoints.method));
  const states = await db.select().from(endpointLicensing);
  const byKey = new Map(states.map((s) => [`${s.endpointId} ${s.env}`, s]));
  const emails = await actorEmails(
    db,
    states.map((s) => (s.updatedBy ?? "").split(":").slice(1).join(":")),
  );
  return eps.flatMap((e) =>
    LICENSING_ENVS.map((env) => {
      const s = byKey.get(`${e.id} ${env}`);
      return {
        endpointId: e.id,
        method: e.method,
        path: e.path,
        family: e.family,
        env,
        state: (s?.state ?? "pending_licensing") as LicensingState,
        reason: s?.reason ?? null,
        changedBy: actorLabel(s?.updatedBy ?? null, emails),
        changedAt: s?.updatedAt.toISOString() ?? null,
      };
    }),
  );
}

export async function requireEndpoint(db: Db, endpointId: string) {
  const [row] = await db.select().from(endpoints).where(eq(endpoints.id, endpointId));
  if (!row) throw new DomainError("not_found", `no endpoint ${endpointId.slice(0, 80)}`, { field: "endpointId" });
  return row;
}

export interface LicensingHistoryItem {
  id: number;
  at: string;
  actor: string;
  env: string | null;
  before: string | null;
  after: string | null;
  reason: string | null;
  requestId: string | null;
}

/** One endpoint's licensing changes, newest first, read from the audit log. */
export async function licensingHistory(db: Db, endpointId: string): Promise<LicensingHistoryItem[]> {
  await requireEndpoint(db, endpointId);
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.target, `endpoint:${endpointId}`), eq(auditLog.action, "endpoint.set_licensing")))
    .orderBy(desc(auditLog.id))
    .limit(500);
  const emails = await actorEmails(
    db,
    rows.map((r) => r.actorId),
  );
  return rows.map((r) => {
    const before = (r.before ?? {}) as { env?: string; state?: string | null };
    const after = (r.after ?? {}) as { env?: string; state?: string; reason?: string };
    return {
      id: r.id,
      at: r.createdAt.toISOString(),
      actor: actorLabel(`${r.actorType}:${r.actorId}`, emails) as string,
      env: after.env ?? before.env ?? null,
      before: before.state ?? null,
      after: after.state ?? null,
      reason: after.reason ?? null,
      requestId: r.requestId,
    };
  });
}

export type LicensingChange = Unchecked<LicensingChangeInput>;

/** Validates an admin's change before anything is written (the same checks whether or not it is then applied). */
export async function checkLicensingChange(db: Db, input: LicensingChange) {
  const { endpointId, env, state, reason } = parseInput(licensingChangeBody, input);
  return { endpoint: await requireEndpoint(db, endpointId), env, state, reason };
}

/** Changes one endpoint's state in one environment (audited by setLicensing); every process polls the table. */
export async function changeLicensing(db: Db, input: LicensingChange, actor: Actor): Promise<LicensingRow> {
  const c = await checkLicensingChange(db, input);
  await setLicensing(
    db,
    { path: c.endpoint.path, method: c.endpoint.method, env: c.env, state: c.state, reason: c.reason },
    actor,
  );
  const rows = await listLicensing(db);
  const row = rows.find((r) => r.endpointId === c.endpoint.id && r.env === c.env);
  if (!row) throw new DomainError("not_found", "no such endpoint");
  return row;
}
