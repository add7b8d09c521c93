/**
 * API access requests: a verified owner on a paid plan asks for an svc_sk_live_ key; an operator approves
 * (issuing the key, kept encrypted until the requester has seen it once) or rejects with a reason.
 */
import "server-only";
import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { accessRequests, apiKeys, users } from "../../db/schema";
import { open, seal } from "../crypto/secret-box";
import { recordAudit, type Actor } from "./audit";
import { ACCESS_PROMISE_BUSINESS_DAYS, businessDaysBetween } from "./business-days";
import { DomainError } from "./errors";
import type { ExpectedVolume } from "../shared/access-volumes";
import { assertMayHoldLiveKey, insertKey, type Tx } from "./keys";
import { parseInput, type Unchecked } from "./input";
import { accessRequestBody, type AccessRequestInput, KEY_NAME_MAX } from "../contract/portal-inputs";
import { rejectBody } from "../contract/admin-inputs";

const SEAL_PURPOSE = "access-request-key";
type Row = typeof accessRequests.$inferSelect;

export interface AccessRequestView {
  id: string;
  company: string;
  useCase: string;
  expectedVolume: ExpectedVolume;
  status: "pending" | "approved" | "rejected";
  createdAt: string;
  decidedAt: string | null;
  /** Rejection reason, in the operator's words. */
  reason: string | null;
  /** Business days since the request (pending) or until the decision, against the 1–3 business-day promise. */
  ageBusinessDays: number;
  overdue: boolean;
  /** Approved: the issued key's display prefix, and whether it is still waiting to be shown. */
  keyPrefix: string | null;
  keyWaiting: boolean;
}

export async function submitAccessRequest(
  db: Db,
  input: { accountId: string; userId: string } & Unchecked<AccessRequestInput>,
  actor: Actor,
): Promise<AccessRequestView> {
  const { company, useCase, expectedVolume } = parseInput(accessRequestBody, {
    company: input.company,
    useCase: input.useCase,
    expectedVolume: input.expectedVolume,
  });
  return db.transaction(async (tx) => {
    await assertMayHoldLiveKey(tx, input.accountId, input.userId, "sk");
    const pending = await tx
      .select({ id: accessRequests.id })
      .from(accessRequests)
      .where(and(eq(accessRequests.accountId, input.accountId), eq(accessRequests.status, "pending")))
      .for("update");
    if (pending.length)
      throw new DomainError("conflict", "This account already has a pending access request; wait for its answer.");
    const [row] = await tx
      .insert(accessRequests)
      .values({ accountId: input.accountId, userId: input.userId, company, useCase, expectedVolume })
      .returning();
    await recordAudit(tx, {
      actor,
      accountId: input.accountId,
      action: "access_request.create",
      target: `access_request:${row.id}`,
      after: { company, expectedVolume },
    });
    return toView(row, null, new Date());
  });
}

/** The account's requests, newest first. */
export async function listAccessRequests(db: Db, accountId: string, now = new Date()): Promise<AccessRequestView[]> {
  const rows = await db
    .select({ r: accessRequests, prefix: apiKeys.prefix })
    .from(accessRequests)
    .leftJoin(apiKeys, eq(apiKeys.id, accessRequests.keyId))
    .where(eq(accessRequests.accountId, accountId))
    .orderBy(desc(accessRequests.createdAt));
  return rows.map(({ r, prefix }) => toView(r, prefix, now));
}

/** Operators: every request with the requester's e-mail, pending first, oldest first. */
export async function listAllAccessRequests(db: Db, now = new Date()) {
  const rows = await db
    .select({ r: accessRequests, prefix: apiKeys.prefix, email: users.email })
    .from(accessRequests)
    .innerJoin(users, eq(users.id, accessRequests.userId))
    .leftJoin(apiKeys, eq(apiKeys.id, accessRequests.keyId))
    .orderBy(asc(accessRequests.createdAt));
  const order = { pending: 0, approved: 1, rejected: 2 };
  return rows
    .map(({ r, prefix, email }) => ({ ...toView(r, prefix, now), accountId: r.accountId, email }))
    .sort((a, b) => order[a.status] - order[b.status]); // stable: oldest first within each status
}

/** Request ids are UUIDs; anything else is simply not found (and never reaches a uuid cast). */
const isRequestId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

async function lockPending(tx: Tx, id: string): Promise<Row> {
  if (!isRequestId(id)) throw new DomainError("not_found", `no access request ${id}`);
  const [row] = await tx.select().from(accessRequests).where(eq(accessRequests.id, id)).for("update");
  if (!row) throw new DomainError("not_found", `no access request ${id}`);
  if (row.status !== "pending") throw new DomainError("conflict", `access request ${id} is already ${row.status}`);
  return row;
}

/**
 * Issues the svc_sk_live_ key; it is stored encrypted (with `secret`, the app's AUTH_SECRET) until the requester sees
 * it.
 */
export async function approveAccessRequest(
  db: Db,
  id: string,
  actor: Actor,
  secret: string,
  now = new Date(),
): Promise<AccessRequestView> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    const name = `Live key for ${row.company}`.slice(0, KEY_NAME_MAX);
    const key = await insertKey(tx, { accountId: row.accountId, env: "live", style: "sk", name }, actor);
    const [updated] = await tx
      .update(accessRequests)
      .set({
        status: "approved",
        decidedAt: now,
        decidedBy: `${actor.type}:${actor.id}`,
        keyId: key.id,
        keyCiphertext: seal(key.key, secret, SEAL_PURPOSE, row.id),
      })
      .where(eq(accessRequests.id, id))
      .returning();
    await recordAudit(tx, {
      actor,
      accountId: row.accountId,
      action: "access_request.approve",
      target: `access_request:${id}`,
      before: { status: "pending" },
      after: { status: "approved", keyId: key.id },
    });
    return toView(updated, key.prefix, now);
  });
}

export async function rejectAccessRequest(
  db: Db,
  id: string,
  reason: unknown,
  actor: Actor,
  now = new Date(),
): Promise<AccessRequestView> {
  const why = parseInput(rejectBody, { reason }).reason;
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    const [updated] = await tx
      .update(accessRequests)
      .set({ status: "rejected", decidedAt: now, decidedBy: `${actor.type}:${actor.id}`, decisionReason: why })
      .where(eq(accessRequests.id, row.id))
      .returning();
    await recordAudit(tx, {
      actor,
      accountId: row.accountId,
      action: "access_request.reject",
      target: `access_request:${id}`,
      before: { status: "pending" },
      after: { status: "rejected", reason: why },
    });
    return toView(updated, null, now);
  });
}

/** The requester sees the issued key once: decrypted, then the ciphertext is deleted in the same transaction. */
export async function revealAccessKey(
  db: Db,
  input: { accountId: string; requestId: string },
  actor: Actor,
  secret: string,
) {
  return db.transaction(async (tx) => {
    const [row] = isRequestId(input.requestId)
      ? await tx
          .select()
          .from(accessRequests)
          .where(and(eq(accessRequests.id, input.requestId), eq(accessRequests.accountId, input.accountId)))
          .for("update")
      : [];
    if (!row) throw new DomainError("not_found", "No such access request.");
    if (row.status !== "approved")
      throw new DomainError("conflict", `This request is ${row.status}; a key is issued only on approval.`);
    if (!row.keyCiphertext || !row.keyId)
      throw new DomainError(
        "conflict",
        "This key was already shown once; if you did not keep it, revoke it on the Keys page and request another.",
      );
    const key = open(row.keyCiphertext, secret, SEAL_PURPOSE, row.id);
    await tx
      .update(accessRequests)
      .set({ keyCiphertext: null, keyShownAt: new Date() })
      .where(eq(accessRequests.id, row.id));
    await recordAudit(tx, {
      actor,
      accountId: row.accountId,
      action: "access_request.key_shown",
      target: `access_request:${row.id}`,
      after: { keyId: row.keyId },
    });
    return { key, keyId: row.keyId };
  });
}

function toView(r: Row, keyPrefix: string | null, now: Date): AccessRequestView {
  const age = businessDaysBetween(r.createdAt, r.decidedAt ?? now);
  return {
    id: r.id,
    company: r.company,
    useCase: r.useCase,
    expectedVolume: r.expectedVolume as ExpectedVolume,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    reason: r.decisionReason,
    ageBusinessDays: age,
    overdue: age > ACCESS_PROMISE_BUSINESS_DAYS,
    keyPrefix,
    keyWaiting: r.keyCiphertext !== null,
  };
}
