import type { Metadata } from "next";
import { UsageDashboard } from "@/components/portal/usage/usage-dashboard";
import { PageHeader } from "@/components/ui/page";
import { requirePortalUser } from "@/lib/auth/portal-user";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

export default async function UsagePage() {
  await requirePortalUser({ from: "/dashboard/usage" });
  return (
    <div className="space-y-6">
      <PageHeader
        title="Usage"
        description="Every call your keys make, as the API meters it: the same counters decide your limits. Quota is your account's, per environment, shared by all its keys. Times are UTC."
      />
      <UsageDashboard />
    </div>
  );
}
