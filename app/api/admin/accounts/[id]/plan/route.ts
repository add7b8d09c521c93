/** Changes an account's plan (audited with before and after). */
import { setAccountPlan } from "@/lib/domain/accounts";
import { isAccountId } from "@/lib/domain/admin-accounts";
import { DomainError } from "@/lib/domain/errors";
import { adminIdParams, planChangeBody } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../portal/portal-route";
import { asAdmin } from "../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: adminIdParams, body: planChangeBody },
  ({ db, actor, params, body }) => {
    if (!isAccountId(params.id)) throw new DomainError("not_found", "no such account");
    return setAccountPlan(db, params.id, body.plan, asAdmin(actor));
  },
);
