import type { Metadata } from "next";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { UsageDashboard } from "@/components/portal/usage/usage-dashboard";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

export default async function UsagePage() {
  await requirePortalUser({ from: "/dashboard/usage" });
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold">Usage</h1>
        <p className="max-w-3xl text-slate-700">
          Every call your keys make, as the API meters it: the same counters decide your limits. Times are UTC.
        </p>
      </div>
      <UsageDashboard />
    </div>
  );
}
