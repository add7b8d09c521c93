import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import type { AccountListItem } from "@/lib/domain/accounts";
import { ACCOUNT_STATUS_LABELS } from "@/lib/shared/account-status";

type AccountRow = AccountListItem & { calls30d?: number };

const columns = (calls: boolean): Column<AccountRow>[] => [
  {
    id: "account",
    header: "Account",
    cell: (a) => (
      <>
        <Link href={`/admin/accounts/${a.accountId}`} className="font-medium">
          {a.name}
        </Link>
        <span className="block truncate text-xs text-muted">
          {a.accountId} · created {a.createdAt.slice(0, 10)}
        </span>
      </>
    ),
  },
  { id: "owner", header: "Owner", width: "w-56", cell: (a) => a.owner ?? "—" },
  { id: "plan", header: "Plan", width: "w-24", cell: (a) => a.plan },
  {
    id: "status",
    header: "Status",
    width: "w-28",
    cell: (a) => <Badge tone={a.status === "active" ? "ok" : "neutral"}>{ACCOUNT_STATUS_LABELS[a.status]}</Badge>,
  },
  { id: "members", header: "Members", width: "w-24", className: "tabular-nums", cell: (a) => a.members },
  { id: "keys", header: "Keys", width: "w-16", className: "tabular-nums", cell: (a) => a.keys },
  {
    id: "calls",
    header: "Calls (30 days)",
    width: "w-32",
    className: "tabular-nums",
    when: calls,
    cell: (a) => (a.calls30d ?? 0).toLocaleString("en-US"),
  },
];

/** Accounts as the admin lists them: name (id below), owner, plan, status, members, keys and optionally calls. */
export function AccountsTable({ caption, accounts }: { caption: string; accounts: AccountRow[] }) {
  const calls = accounts.some((a) => a.calls30d !== undefined);
  return <DataTable caption={caption} columns={columns(calls)} rows={accounts} rowKey={(a) => a.accountId} wrap />;
}
