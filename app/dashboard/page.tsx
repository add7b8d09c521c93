import type { Metadata } from "next";
import { requirePortalUser } from "@/lib/auth/portal-user";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

export default async function DashboardPage() {
  const user = await requirePortalUser({ from: "/dashboard" });
  return (
    <div className="space-y-4">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <p>Signed in as <strong>{user.email}</strong> ({user.role} of account <code>{user.accountId}</code>).</p>
    </div>
  );
}
