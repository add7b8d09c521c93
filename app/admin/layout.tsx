import Link from "next/link";
import type { ReactNode } from "react";
import { AdminNav } from "@/components/admin/admin-nav";
import { requireAdmin } from "@/components/admin/require-admin";

export const dynamic = "force-dynamic";

/**
 * Every admin page, in the dashboard's shell (sidebar from md up, tabs on phones): signed in with the admin flag
 * (each page checks again: layouts and pages render apart).
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireAdmin();
  return (
    <div data-shell="admin" className="flex min-w-0 flex-1 flex-col md:flex-row">
      <div className="border-line bg-canvas max-md:sticky max-md:top-topbar max-md:z-20 max-md:border-b md:sticky md:top-topbar md:flex md:h-[calc(100vh-var(--spacing-topbar))] md:w-sidebar md:shrink-0 md:flex-col md:border-r">
        <AdminNav />
        <div className="mt-auto space-y-1 border-t border-line px-6 py-4 text-sm max-md:hidden">
          <Link href="/dashboard" className="block text-muted no-underline hover:text-fg">
            Back to the dashboard
          </Link>
          <Link href="/docs" className="block text-muted no-underline hover:text-fg">
            API reference
          </Link>
        </div>
      </div>
      {/* Titles can be an account's e-mail: they wrap anywhere rather than push the page sideways on a phone. */}
      <div className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-8 [&_h1]:[overflow-wrap:anywhere]">{children}</div>
    </div>
  );
}
