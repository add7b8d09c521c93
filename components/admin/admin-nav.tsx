"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export const ADMIN_NAV = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/licensing", label: "Licensing review" },
  { href: "/admin/access-requests", label: "Access requests" },
  { href: "/admin/accounts", label: "Accounts and keys" },
  { href: "/admin/audit", label: "Audit log" },
] as const;

export function AdminNav() {
  const path = usePathname();
  return (
    <nav aria-label="Admin">
      <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
        {ADMIN_NAV.map((item) => {
          const current = item.href === "/admin" ? path === item.href : path.startsWith(item.href);
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
        <li>
          <Link
            href="/dashboard"
            className="block rounded px-3 py-2 text-sm text-slate-900 no-underline hover:bg-slate-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Back to dashboard
          </Link>
        </li>
      </ul>
    </nav>
  );
}
