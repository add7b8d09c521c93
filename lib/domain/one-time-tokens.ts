/**
 * One-time tokens for links in mails (e-mail verification, password reset): 256 random bits, only the SHA-256 digest
 * stored in auth_verification_tokens under `<purpose>:<email>`, one live token per identifier, consumed by deleting it.
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, like, lte } from "drizzle-orm";
import type { Db } from "../db/client";
import { authVerificationTokens as tokens } from "../../db/schema";

export type TokenPurpose = "verify" | "reset";

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = { verify: 24 * 3600_000, reset: 3600_000 };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const tokenDigest = (raw: string) => createHash("sha256").update(raw).digest("hex");

/** A fresh token for `<purpose>:<email>`; earlier tokens for the same identifier stop working. */
export async function issueToken(db: Db, purpose: TokenPurpose, email: string, now = new Date()): Promise<string> {
  const raw = randomBytes(32).toString("base64url");
  const identifier = `${purpose}:${email}`;
  await db.transaction(async (tx) => {
    await tx.delete(tokens).where(eq(tokens.identifier, identifier));
    await tx
      .insert(tokens)
      .values({ identifier, token: tokenDigest(raw), expires: new Date(now.getTime() + TOKEN_TTL_MS[purpose]) });
  });
  return raw;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/** Whether the token is live now, without using it up (a reset checks it before paying for the password's hash). */
export async function tokenIsLive(db: Db, purpose: TokenPurpose, raw: string, now = new Date()): Promise<boolean> {
  if (!TOKEN_SHAPE.test(raw)) return false;
  const [row] = await db
    .select({ identifier: tokens.identifier })
    .from(tokens)
    .where(and(eq(tokens.token, tokenDigest(raw)), like(tokens.identifier, `${purpose}:%`), gt(tokens.expires, now)));
  return Boolean(row);
}

/** Deletes the token and returns its e-mail when it was live; null for unknown, used or expired tokens. */
export async function consumeToken(
  tx: Tx,
  purpose: TokenPurpose,
  raw: string,
  now = new Date(),
): Promise<string | null> {
  if (!TOKEN_SHAPE.test(raw)) return null;
  await tx.delete(tokens).where(and(like(tokens.identifier, `${purpose}:%`), lte(tokens.expires, now)));
  const [row] = await tx
    .delete(tokens)
    .where(and(eq(tokens.token, tokenDigest(raw)), like(tokens.identifier, `${purpose}:%`), gt(tokens.expires, now)))
    .returning({ identifier: tokens.identifier });
  return row ? row.identifier.slice(purpose.length + 1) : null;
}

/** Whether a live token waits for `<purpose>:<email>` (a link that was issued, not used and not expired). */
export async function tokenWaiting(db: Db, purpose: TokenPurpose, email: string, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ identifier: tokens.identifier })
    .from(tokens)
    .where(and(eq(tokens.identifier, `${purpose}:${email}`), gt(tokens.expires, now)));
  return Boolean(row);
}

/**
 * Withdraws the live token of `<purpose>:<email>` (its mail never went out, so no one holds the link): expired now, not
 * deleted, so the row still shows a link was issued; the next issue or use clears it.
 */
export async function withdrawToken(db: Db, purpose: TokenPurpose, email: string, now = new Date()): Promise<void> {
  await db
    .update(tokens)
    .set({ expires: now })
    .where(eq(tokens.identifier, `${purpose}:${email}`));
}
