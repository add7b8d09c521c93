import type { ReactNode } from "react";
import { DisclaimerNote } from "@/components/disclaimer-note";
import { DashboardNav } from "@/components/portal/dashboard-nav";
import { requirePortalUser } from "@/lib/auth/portal-user";

export const dynamic = "force-dynamic";

/** Every dashboard page: signed in with the current terms accepted, the section nav and the disclaimer in view. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePortalUser();
  return (
    <div className="flex flex-col gap-6 md:flex-row">
      <aside className="md:w-48 md:shrink-0">
        <DashboardNav admin={user.isAdmin} />
      </aside>
      <div className="min-w-0 flex-1 space-y-6">
        <DisclaimerNote />
        {children}
      </div>
    </div>
  );
}
