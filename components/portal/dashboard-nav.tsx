"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui/cx";
import { useCurrentTabInView } from "@/components/ui/current-tab";

export const DASHBOARD_NAV = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/usage", label: "Usage" },
  { href: "/dashboard/logs", label: "Logs" },
  { href: "/dashboard/playground", label: "Playground" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/access", label: "Access requests" },
  { href: "/dashboard/team", label: "Team" },
  { href: "/dashboard/plan", label: "Plan" },
] as const;

/**
 * The dashboard's sections: a fixed sidebar from md up; on phones one row of tabs under the top bar that scrolls
 * sideways inside itself (the page never does). `admin`: the signed-in user has the admin flag (checked on the
 * server), so the nav links to /admin. The current tab is scrolled into the row's view.
 */
export function DashboardNav({ admin = false }: { admin?: boolean }) {
  const items = admin ? [...DASHBOARD_NAV, { href: "/admin", label: "Admin" }] : DASHBOARD_NAV;
  return <SectionNav label="Dashboard" items={items} home="/dashboard" />;
}

/** A shell's section links (dashboard, admin console); `home` is current only on its own path. */
export function SectionNav({
  label,
  items,
  home,
}: {
  label: string;
  items: readonly { href: string; label: string }[];
  home: string;
}) {
  const path = usePathname();
  const row = useCurrentTabInView<HTMLUListElement>(path);
  return (
    <nav aria-label={label} className="md:py-4">
      <ul
        ref={row}
        className="flex gap-1 overflow-x-auto px-3 py-2 [scrollbar-width:none] md:flex-col md:overflow-visible md:p-0 md:px-3"
      >
        {items.map((item) => {
          const current = item.href === home ? path === item.href : path.startsWith(item.href);
          return (
            <li key={item.href} className="shrink-0">
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={cx(
                  "block rounded-md px-3 py-1.5 text-sm whitespace-nowrap no-underline hover:no-underline",
                  current ? "bg-accent-soft font-medium text-fg" : "text-muted hover:bg-hover hover:text-fg",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
