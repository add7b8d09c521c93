import { Badge, type Tone } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import type { AccountDetail } from "@/lib/domain/admin-accounts";
import { ROLE_LABELS } from "@/lib/shared/roles";
import { ActionButton } from "./action-button";
import { utc } from "./format";

type Member = AccountDetail["members"][number];
type Key = AccountDetail["keys"][number];

const KEY_TONE: Record<Key["state"], Tone> = {
  active: "ok",
  inactive: "neutral",
  revoked: "bad",
  expired: "neutral",
};

/** The account page's context for row actions: its API path, its name, and the admin looking at it. */
export interface AccountContext {
  base: string;
  accountName: string;
  adminUserId: string;
}

function AdminFlag({ m, base, adminUserId }: { m: Member } & Omit<AccountContext, "accountName">) {
  if (m.admin && m.userId === adminUserId)
    return <span className="text-xs text-muted">You cannot remove your own flag.</span>;
  return m.admin ? (
    <ActionButton
      path={`${base}/members/${m.userId}/admin`}
      body={{ admin: false }}
      label="Remove admin"
      name={`Remove admin: ${m.email}`}
      title={`Remove the admin flag of ${m.email}?`}
      effect={`${m.email} loses the admin console at their next request. The last admin cannot be removed.`}
      tone="danger"
    />
  ) : (
    <ActionButton
      path={`${base}/members/${m.userId}/admin`}
      body={{ admin: true }}
      label="Make admin"
      name={`Make admin: ${m.email}`}
      title={`Make ${m.email} an admin?`}
      effect={`${m.email} gets the admin console: every account, key, request and licensing state.`}
    />
  );
}

function KeyStatusChange({ k, base, accountName }: { k: Key } & Omit<AccountContext, "adminUserId">) {
  if (k.status === "active")
    return (
      <ActionButton
        path={`${base}/keys/${k.id}/status`}
        body={{ status: "inactive" }}
        label="Deactivate"
        name={`Deactivate key ${k.prefix}`}
        title={`Deactivate key ${k.prefix}… (${k.name})?`}
        effect={`Calls with this ${k.env} key of ${accountName} get 403 inactive_key within 5 seconds on every server; reactivating restores it.`}
        reason
        tone="danger"
      />
    );
  if (k.status === "inactive")
    return (
      <ActionButton
        path={`${base}/keys/${k.id}/status`}
        body={{ status: "active" }}
        label="Reactivate"
        name={`Reactivate key ${k.prefix}`}
        title={`Reactivate key ${k.prefix}… (${k.name})?`}
        effect={`This ${k.env} key of ${accountName} works again within 5 seconds.`}
      />
    );
  return <span className="text-xs text-muted">No change: {k.state}</span>;
}

/** The account's members: e-mail, role, verified, admin flag, and making or removing an admin. */
export const memberColumns = (ctx: AccountContext): Column<Member>[] => [
  { id: "email", header: "E-mail", cell: (m) => m.email },
  { id: "role", header: "Role", width: "w-28", cell: (m) => ROLE_LABELS[m.role] },
  { id: "verified", header: "Verified", width: "w-24", cell: (m) => (m.verified ? "yes" : "no") },
  { id: "admin", header: "Admin", width: "w-24", cell: (m) => (m.admin ? <Badge tone="info">admin</Badge> : "no") },
  {
    id: "change",
    header: "Change",
    width: "w-56",
    srOnlyHeader: true,
    cell: (m) => <AdminFlag m={m} base={ctx.base} adminUserId={ctx.adminUserId} />,
  },
];

/** The account's keys: name, prefix, environment, state, dates, and deactivating or reactivating. */
export const keyColumns = (ctx: AccountContext): Column<Key>[] => [
  { id: "name", header: "Name", cell: (k) => k.name },
  { id: "prefix", header: "Prefix", width: "w-36", cell: (k) => <code className="text-xs">{k.prefix}</code> },
  {
    id: "environment",
    header: "Environment",
    width: "w-28",
    cell: (k) => <Badge tone={k.env === "test" ? "neutral" : "info"}>{k.env}</Badge>,
  },
  { id: "status", header: "Status", width: "w-28", cell: (k) => <Badge tone={KEY_TONE[k.state]}>{k.state}</Badge> },
  {
    id: "dates",
    header: "Created and last used",
    width: "w-52",
    className: "text-xs tabular-nums",
    cell: (k) => (
      <>
        <span className="block">created {utc(k.createdAt)}</span>
        <span className="block text-muted">last used {k.lastUsedAt ? utc(k.lastUsedAt) : "never"}</span>
      </>
    ),
  },
  {
    id: "change",
    header: "Change",
    width: "w-36",
    srOnlyHeader: true,
    cell: (k) => <KeyStatusChange k={k} base={ctx.base} accountName={ctx.accountName} />,
  },
];

/** Calls per endpoint over the account's 30 days. */
export const ENDPOINT_COLUMNS: Column<[endpoint: string, calls: number]>[] = [
  { id: "endpoint", header: "Endpoint", cell: ([endpoint]) => <code className="text-xs">{endpoint}</code> },
  {
    id: "calls",
    header: "Calls",
    width: "w-32",
    className: "tabular-nums",
    cell: ([, calls]) => calls.toLocaleString("en-US"),
  },
];
