import type { Metadata } from "next";
import { can, keyPermission } from "@/lib/shared/roles";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { listKeys } from "@/lib/domain/keys";
import { browserOrigins } from "@/lib/domain/browser-origins";
import { portalDb } from "@/lib/server/portal-db";
import { KeysPanel } from "@/components/portal/keys/keys-panel";
import { BrowserOriginsForm } from "@/components/portal/keys/browser-origins-form";
import { PageHeader } from "@/components/ui/page";

export const metadata: Metadata = { title: "API keys" };
export const dynamic = "force-dynamic";

export default async function KeysPage() {
  const user = await requirePortalUser({ from: "/dashboard/keys" });
  const db = await portalDb();
  const [keys, origins] = await Promise.all([listKeys(db, user.accountId), browserOrigins(db, user.accountId)]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description={
          <>
            Send a key as <code>Authorization: Bearer &lt;key&gt;</code>, <code>x-api-key</code> or{" "}
            <code>X-Service-Key</code>. Test keys (<code>svc_test_</code>) get demo data on the Sandbox plan; live keys
            (<code>svc_live_</code>) follow your plan. A revoked key stops working within 5 seconds; a rolled key keeps
            working for the overlap you choose.
          </>
        }
      />
      <KeysPanel
        initialKeys={keys}
        envs={(["test", "live"] as const).filter((e) => can(user.role, keyPermission(e)))}
      />
      <BrowserOriginsForm initial={origins} canManage={can(user.role, "allowed_origins")} />
    </div>
  );
}
