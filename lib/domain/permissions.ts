/**
 * The domain's half of the member permission check: what depends on the thing acted on (a live key needs `live_keys`,
 * a test key `test_keys`). The route's own permission is checked by the portal wrapper from lib/portal/route-rules.ts.
 */
import "server-only";
import type { Actor } from "./audit";
import { DomainError } from "./errors";
import { can, type Permission, refusal } from "../shared/roles";

/** Refuses a portal member whose role lacks the permission; operators, the CLI and keys are not members. */
export function assertActorMay(actor: Actor, permission: Permission): void {
  if (actor.type !== "user" || !actor.role) return;
  if (!can(actor.role, permission)) throw new DomainError("forbidden", refusal(actor.role, permission));
}
