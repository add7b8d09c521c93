/**
 * What each member role may do in an account (issue 32), browser-safe so pages hide what the server would refuse.
 * Each role has every permission of the roles below it: Viewer < Developer < Admin < Owner.
 */
export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  developer: "Developer",
  viewer: "Viewer",
};

/** The least role that holds each permission. */
export const PERMISSION_MIN_ROLE = {
  /** Usage, the request log, keys' metadata, webhooks' metadata, the plan, the team, the docs. */
  read: "viewer",
  /** Create, roll and revoke test keys. */
  test_keys: "developer",
  /** The playground, with the account's test keys (live keys there need live_keys too). */
  playground: "developer",
  /** Register, pause, test, replay, rotate and delete webhooks of test keys. */
  test_webhooks: "developer",
  /** Create, roll and revoke live keys, and ask for or reveal a live access key. */
  live_keys: "admin",
  live_webhooks: "admin",
  allowed_origins: "admin",
  /** Invite members, change roles and remove members below Owner. */
  members: "admin",
  plan: "owner",
  transfer_ownership: "owner",
  delete_account: "owner",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSION_MIN_ROLE;
export const PERMISSIONS = Object.keys(PERMISSION_MIN_ROLE) as Permission[];

/** Owner 3 … Viewer 0: a larger rank holds every permission of a smaller one. */
export const roleRank = (role: Role): number => ROLES.length - 1 - ROLES.indexOf(role);

export const isRole = (value: unknown): value is Role => typeof value === "string" && ROLES.includes(value as Role);

export function can(role: Role, permission: Permission): boolean {
  return roleRank(role) >= roleRank(PERMISSION_MIN_ROLE[permission]);
}

/** The permission an action on a key or webhook of this environment needs. */
export const keyPermission = (env: "test" | "live"): Permission => (env === "live" ? "live_keys" : "test_keys");
export const webhookPermission = (env: "test" | "live"): Permission =>
  env === "live" ? "live_webhooks" : "test_webhooks";

/** Whether the member may call with a key of this environment in the playground (a Developer: test keys only). */
export const mayUseKey = (role: Role, env: "test" | "live"): boolean =>
  can(role, "playground") && can(role, keyPermission(env));

/** In words, for a 403: what the role lacks. */
export function refusal(role: Role, permission: Permission): string {
  const least = ROLE_LABELS[PERMISSION_MIN_ROLE[permission]];
  return `Your role (${ROLE_LABELS[role]}) cannot do this; it needs ${least}${least === "Owner" ? "" : " or above"}.`;
}
