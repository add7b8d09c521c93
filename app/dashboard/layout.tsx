import Link from "next/link";
import type { ReactNode } from "react";
import { DisclaimerNote } from "@/components/disclaimer-note";
import { DashboardNav } from "@/components/portal/dashboard-nav";
import { AccountSwitcher } from "@/components/portal/team/account-switcher";
import { requirePortalUser } from "@/lib/auth/portal-user";

export const dynamic = "force-dynamic";

/** Every dashboard page: signed in with the current terms accepted, the section nav fixed at the side, the content full width. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requirePortalUser();
  return (
    <div data-shell="dashboard" className="flex min-w-0 flex-1 flex-col md:flex-row">
      <div className="border-line bg-canvas max-md:sticky max-md:top-topbar max-md:z-20 max-md:border-b md:sticky md:top-topbar md:flex md:h-[calc(100vh-var(--spacing-topbar))] md:w-sidebar md:shrink-0 md:flex-col md:border-r">
        {user.accounts.length > 1 ? <AccountSwitcher accounts={user.accounts} current={user.accountId} /> : null}
        <DashboardNav admin={user.isAdmin} />
        <div className="mt-auto space-y-1 border-t border-line px-6 py-4 text-sm max-md:hidden">
          <Link href="/docs" className="block text-muted no-underline hover:text-fg">
            API reference
          </Link>
          <Link href="/docs/guides/quick-start" className="block text-muted no-underline hover:text-fg">
            Quick start guide
          </Link>
        </div>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-6 px-4 py-6 sm:px-6 lg:px-8">
        <div className="min-w-0 flex-1">{children}</div>
        <DisclaimerNote compact />
      </div>
    </div>
  );
}
