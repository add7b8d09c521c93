"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const DASHBOARD_NAV = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/access", label: "Access requests" },
  { href: "/dashboard/plan", label: "Plan" },
  { href: "/dashboard/usage", label: "Usage" },
  { href: "/dashboard/playground", label: "Playground" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
] as const;

/** `admin`: the signed-in user has the admin flag (checked on the server), so the nav links to /admin. */
export function DashboardNav({ admin = false }: { admin?: boolean }) {
  const path = usePathname();
  const items = admin ? [...DASHBOARD_NAV, { href: "/admin", label: "Admin" }] : DASHBOARD_NAV;
  return (
    <nav aria-label="Dashboard">
      <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
        {items.map((item) => {
          const current = item.href === "/dashboard" ? path === item.href : path.startsWith(item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={`block rounded px-3 py-2 text-sm no-underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700 ${current ? "bg-blue-700 font-semibold text-white" : "text-slate-900 hover:bg-slate-200"}`}
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
