/** Deactivates or reactivates an account (the account functions carry the cascade to sign-in, keys and webhooks). */
import { setAccountStatus } from "@/lib/domain/accounts";
import { deactivationReason, isAccountId } from "@/lib/domain/admin-accounts";
import { DomainError } from "@/lib/domain/errors";
import { adminIdParams, statusBody } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../portal/portal-route";
import { asAdmin } from "../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: adminIdParams, body: statusBody },
  ({ db, actor, params, body }) => {
    if (!isAccountId(params.id)) throw new DomainError("not_found", "no such account");
    const reason = deactivationReason(body.status, body.reason);
    return setAccountStatus(db, params.id, body.status, asAdmin(actor), reason);
  },
);
