/** Fixed choices and limits of the portal's and admin console's inputs (pure data: schemas, forms, the domain). */
export const KEY_ENVS = ["test", "live"] as const;
export type KeyEnv = (typeof KEY_ENVS)[number];

export const PLAN_IDS = ["sandbox", "starter", "pro", "enterprise"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const LICENSING_ENVS = ["live", "test"] as const;
export const LICENSING_STATES = ["enabled", "pending_licensing"] as const;
export type LicensingEnv = (typeof LICENSING_ENVS)[number];
export type LicensingState = (typeof LICENSING_STATES)[number];

/** Overlap choices, in seconds: how long the old key keeps working after a roll. */
export const ROLL_OVERLAPS = { now: 0, "1h": 3600, "24h": 86_400, "7d": 604_800 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

export const ACCOUNT_STATUSES = ["active", "inactive"] as const;

/** A new password's length (its strength is scored too: lib/crypto/password-strength.ts). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
