"use client";

import { SectionNav } from "@/components/portal/dashboard-nav";

export const ADMIN_NAV = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/licensing", label: "Licensing review" },
  { href: "/admin/access-requests", label: "Access requests" },
  { href: "/admin/accounts", label: "Accounts and keys" },
  { href: "/admin/audit", label: "Audit log" },
] as const;

/** The admin console's sections, in the dashboard's sidebar (tabs on phones). */
export function AdminNav() {
  return <SectionNav label="Admin" items={ADMIN_NAV} home="/admin" />;
}
