/** Deactivates or reactivates one of the account's keys; every process refuses it with 403 inactive_key within 5 s. */
import { deactivationReason, setKeyActive } from "@/lib/domain/admin-accounts";
import { adminKeyParams, statusBody } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../../../portal/portal-route";
import { asAdmin } from "../../../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute(
  { admin: true, params: adminKeyParams, body: statusBody },
  ({ db, actor, params, body }) =>
    setKeyActive(
      db,
      { id: params.keyId, accountId: params.id },
      body.status === "active",
      asAdmin(actor),
      deactivationReason(body.status, body.reason),
    ),
);
