import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { AccountListItem } from "@/lib/domain/accounts";
import { ACCOUNT_STATUS_LABELS } from "@/lib/shared/account-status";
import { AdminTable, Cell, Row } from "./table";

/** Accounts as the admin lists them: name (id below), owner, plan, status, members, keys and optionally calls. */
export function AccountsTable({
  caption,
  accounts,
}: {
  caption: string;
  accounts: (AccountListItem & { calls30d?: number })[];
}) {
  const calls = accounts.some((a) => a.calls30d !== undefined);
  return (
    <AdminTable
      caption={caption}
      columns={[
        { label: "Account" },
        { label: "Owner", width: "w-56" },
        { label: "Plan", width: "w-24" },
        { label: "Status", width: "w-28" },
        { label: "Members", width: "w-24" },
        { label: "Keys", width: "w-16" },
        ...(calls ? [{ label: "Calls (30 days)", width: "w-32" }] : []),
      ]}
    >
      {accounts.map((a) => (
        <Row key={a.accountId}>
          <Cell label="Account">
            <Link href={`/admin/accounts/${a.accountId}`} className="font-medium">
              {a.name}
            </Link>
            <span className="block truncate text-xs text-muted">
              {a.accountId} · created {a.createdAt.slice(0, 10)}
            </span>
          </Cell>
          <Cell label="Owner">{a.owner ?? "—"}</Cell>
          <Cell label="Plan">{a.plan}</Cell>
          <Cell label="Status">
            <Badge tone={a.status === "active" ? "ok" : "neutral"}>{ACCOUNT_STATUS_LABELS[a.status]}</Badge>
          </Cell>
          <Cell label="Members" className="tabular-nums">
            {a.members}
          </Cell>
          <Cell label="Keys" className="tabular-nums">
            {a.keys}
          </Cell>
          {calls ? (
            <Cell label="Calls (30 days)" className="tabular-nums">
              {(a.calls30d ?? 0).toLocaleString("en-US")}
            </Cell>
          ) : null}
        </Row>
      ))}
    </AdminTable>
  );
}
