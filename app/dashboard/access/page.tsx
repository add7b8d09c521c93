import type { Metadata } from "next";
import { can } from "@/lib/shared/roles";
import Link from "next/link";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { listAccessRequests } from "@/lib/domain/access-requests";
import { EXPECTED_VOLUMES } from "@/lib/shared/access-volumes";
import { liveKeyRequirement } from "@/lib/contract/refusals";
import { currentPlan } from "@/lib/domain/plans";
import { portalDb } from "@/lib/server/portal-db";
import { AccessPanel } from "@/components/portal/access/access-panel";

export const metadata: Metadata = { title: "API access" };
export const dynamic = "force-dynamic";

export default async function AccessPage() {
  const user = await requirePortalUser({ from: "/dashboard/access" });
  const db = await portalDb();
  const [requests, plan] = await Promise.all([listAccessRequests(db, user.accountId), currentPlan(db, user.accountId)]);
  const planAdmits = plan.liveKeyStyles.includes("sk");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">API access</h1>
      <div className="max-w-3xl space-y-2 text-muted">
        <p>
          <code>svc_sk_live_</code> keys are issued on request: tell us what you are building, an operator reviews it
          and we answer within 1–3 business days. Once approved, the key is shown to you once on this page.
        </p>
        <p>
          <strong>{liveKeyRequirement("sk")}</strong> and a verified e-mail address.
          {planAdmits ? (
            ` Your plan, ${plan.nameA}, qualifies.`
          ) : (
            <>
              {" "}
              Your plan is {plan.nameA}:{" "}
              <Link href="/dashboard/plan" className="font-medium underline">
                change your plan
              </Link>{" "}
              first.
            </>
          )}
          {user.emailVerified ? null : " Your e-mail address is not verified yet."}
        </p>
      </div>
      <AccessPanel initial={requests} canManage={can(user.role, "live_keys")} volumes={EXPECTED_VOLUMES} />
    </div>
  );
}
