/** Password hashing with argon2id at OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1). */
import "server-only";
import { hash, verify } from "@node-rs/argon2";

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

export const hashPassword = (password: string) => hash(password, OPTIONS);

/** Constant work whether or not the user exists: a missing hash is compared against a dummy one. */
const DUMMY = hash("not-a-real-password-for-timing", OPTIONS);
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  try {
    return (await verify(stored ?? (await DUMMY), password)) && stored !== null;
  } catch {
    return false;
  }
}
