import type { Metadata } from "next";
import { can } from "@/lib/shared/roles";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { currentPlan, listPlans } from "@/lib/domain/plans";
import { portalDb } from "@/lib/server/portal-db";
import { PlanLimitsTable } from "@/components/plan-limits-table";
import { PlanChange } from "@/components/portal/plan/plan-change";

export const metadata: Metadata = { title: "Plan" };
export const dynamic = "force-dynamic";

export default async function PlanPage() {
  const user = await requirePortalUser({ from: "/dashboard/plan" });
  const db = await portalDb();
  const [plan, plans] = await Promise.all([currentPlan(db, user.accountId), listPlans(db)]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Plan</h1>
      <p className="text-lg">
        Your account is on <strong>{plan.nameA}</strong>. Test keys always get Sandbox limits and demo data; live keys
        get this plan&apos;s limits (family A per minute and per calendar month, family B per minute and per calendar
        day, UTC).
      </p>
      <p className="rounded border border-line bg-subtle px-3 py-2 text-sm">
        Payment collection is out of scope for this portal: changing the plan here takes no payment and sends no
        invoice.
      </p>
      <PlanLimitsTable plans={plans} current={plan.id} />
      {can(user.role, "plan") ? (
        <PlanChange
          plans={plans.map((p) => ({ id: p.id, nameA: p.nameA, nameB: p.nameB, liveKeyStyles: p.liveKeyStyles }))}
          current={plan.id}
        />
      ) : (
        <p className="text-muted">Only the account&apos;s Owner can change the plan.</p>
      )}
    </div>
  );
}
