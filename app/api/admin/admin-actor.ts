/** An admin's change is recorded as the admin's (actor type "admin", their user id), with the request's id and address. */
import type { Actor } from "@/lib/domain/audit";

export const asAdmin = (actor: Actor): Actor => ({ ...actor, type: "admin" });
