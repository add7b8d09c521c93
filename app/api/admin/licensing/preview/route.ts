/** The exact response a caller will get after a licensing change; validates like the change itself, writes nothing. */
import { checkLicensingChange } from "@/lib/domain/admin-licensing";
import { licensingChangeBody } from "@/lib/portal/admin-schemas";
import { licensingPreview } from "@/lib/server/admin-licensing-preview";
import { portalRoute } from "../../../portal/portal-route";

export const runtime = "nodejs";

export const POST = portalRoute({ admin: true, body: licensingChangeBody }, async ({ db, body }) => {
  const c = await checkLicensingChange(db, body);
  return licensingPreview(c.endpoint, c.env, c.state);
});
