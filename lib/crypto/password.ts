/**
 * Password hashing with argon2id at OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1), behind one gate per
 * process: at most ARGON2_CONCURRENCY hashes run at once and at most ARGON2_QUEUE wait, so a flood of hashing
 * requests cannot take every core and all memory from sign-ins (docs/security.md "Password hashing").
 */
import "server-only";
import { availableParallelism } from "node:os";
import { hash, verify } from "@node-rs/argon2";
import { Gate } from "../util/gate";

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export { PASSWORD_MAX, PASSWORD_MIN } from "../shared/input-choices";

/** Hashes running at once (one per core) and hashes allowed to wait for a turn; past that the caller is refused. */
export const ARGON2_CONCURRENCY = Math.max(1, availableParallelism());
export const ARGON2_QUEUE = 64;
export const hashGate = new Gate(ARGON2_CONCURRENCY, ARGON2_QUEUE);

export const hashPassword = (password: string) => hashGate.run(() => hash(password, OPTIONS));

/** Constant work whether or not the user exists: a missing hash is compared against a dummy one. */
const DUMMY = hash("not-a-real-password-for-timing", OPTIONS);
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const against = stored ?? (await DUMMY);
  const ok = await hashGate.run(async () => {
    try {
      return await verify(against, password);
    } catch {
      return false;
    }
  });
  return ok && stored !== null;
}
