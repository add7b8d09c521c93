/** Approves a request: the svc_sk_live_ key is issued to the requester (shown to them once), never to the admin; the requester is mailed that it waits. */
import { approveAndMail } from "@/lib/mail/access-mail";
import { readAuthSecret } from "@/lib/crypto/secret-box";
import { adminIdParams } from "@/lib/portal/admin-schemas";
import { portalRoute } from "../../../../portal/portal-route";
import { asAdmin } from "../../../admin-actor";

export const runtime = "nodejs";

export const POST = portalRoute({ admin: true, params: adminIdParams }, ({ db, actor, params }) =>
  approveAndMail(db, params.id, asAdmin(actor), readAuthSecret()),
);
