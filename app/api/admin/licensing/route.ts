/** Every endpoint × environment with its licensing state (GET), and an admin's change with a reason (POST). */
import { changeLicensing, listLicensing } from "@/lib/domain/admin-licensing";
import { licensingChangeBody } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../portal/portal-route";
import { asAdmin } from "../admin-actor";

export const runtime = "nodejs";

export const GET = portalRoute({ admin: true }, ({ db }) => listLicensing(db));

export const POST = portalRoute({ admin: true, body: licensingChangeBody }, ({ db, actor, body }) =>
  changeLicensing(db, body, asAdmin(actor)),
);
