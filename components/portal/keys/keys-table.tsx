"use client";

import type { KeyListItem } from "@/lib/domain/keys";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DotsIcon } from "@/components/ui/icons";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "@/components/ui/menu";
import { EmptyState } from "@/components/ui/empty-state";
import { actionsColumn, type Column, DataTable } from "@/components/ui/data-table";
import { Truncate } from "@/components/ui/truncate";
import { utcMinute } from "../format";

const STATE: Record<KeyListItem["state"], { label: string; tone: Tone }> = {
  active: { label: "Active", tone: "ok" },
  inactive: { label: "Inactive", tone: "neutral" },
  revoked: { label: "Revoked", tone: "bad" },
  expired: { label: "Expired", tone: "neutral" },
};

function Status({ k }: { k: KeyListItem }) {
  const s = STATE[k.state];
  if (k.state === "active" && k.expiresAt)
    return (
      <span className="flex min-w-0 flex-wrap items-center gap-x-1.5 text-xs text-muted">
        <Badge tone="warn">Active</Badge> <span>until {utcMinute(k.expiresAt)} (rolled)</span>
      </span>
    );
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** A working key's actions (Roll, Revoke) in a drop-down menu: keyboard and focus handling come from Radix. */
function RowActions({
  k,
  onRevoke,
  onRoll,
}: {
  k: KeyListItem;
  onRevoke: (k: KeyListItem) => void;
  onRoll: (k: KeyListItem) => void;
}) {
  return (
    <Menu
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Actions for key “${k.name}”`} className="px-2">
          <DotsIcon />
          <span className="md:hidden">Actions</span>
        </Button>
      }
    >
      <MenuLabel>
        <span className="block max-w-56 truncate">
          {k.name} · {k.prefix}…
        </span>
      </MenuLabel>
      <MenuSeparator />
      {k.state === "active" && !k.expiresAt ? <MenuItem onSelect={() => onRoll(k)}>Roll</MenuItem> : null}
      <MenuItem danger onSelect={() => onRevoke(k)}>
        Revoke
      </MenuItem>
    </Menu>
  );
}

interface KeyActions {
  /** Whether the member's role manages this key (its environment); no key manageable, no actions column. */
  canManage: (k: KeyListItem) => boolean;
  onRevoke: (k: KeyListItem) => void;
  onRoll: (k: KeyListItem) => void;
}

const keyColumns = ({ canManage, onRevoke, onRoll }: KeyActions, anyManaged: boolean): Column<KeyListItem>[] => [
  { id: "name", header: "Name", rowHeader: true, cell: (k) => <Truncate text={k.name} /> },
  { id: "key", header: "Key", width: "w-40", cell: (k) => <code className="text-xs">{k.prefix}…</code> },
  {
    id: "environment",
    header: "Environment",
    width: "w-32",
    cell: (k) => (
      <>
        <Badge tone={k.env === "test" ? "neutral" : "info"}>{k.env === "test" ? "Test" : "Live"}</Badge>{" "}
        <span className="text-xs text-muted">{k.plan}</span>
      </>
    ),
  },
  {
    id: "last-used",
    header: "Last used",
    width: "w-44",
    className: "text-xs text-muted tabular-nums",
    cell: (k) => (
      <>
        <span className="text-fg">{utcMinute(k.lastUsedAt)}</span>
        <span className="block" title={utcMinute(k.createdAt)}>
          created {k.createdAt.slice(0, 10)}
        </span>
      </>
    ),
  },
  { id: "status", header: "Status", width: "w-40", cell: (k) => <Status k={k} /> },
  actionsColumn(
    (k) =>
      canManage(k) && (k.state === "active" || k.state === "inactive") ? (
        <RowActions k={k} onRevoke={onRevoke} onRoll={onRoll} />
      ) : null,
    { width: "w-16", when: anyManaged },
  ),
];

/** The account's keys; each row that still works has an actions menu (Roll, Revoke). Fits its column: names cut with the full text on hover and focus. */
export function KeysTable({ keys, ...actions }: { keys: KeyListItem[] } & KeyActions) {
  return (
    <DataTable
      caption="Your API keys. Only the display prefix is kept; the full key was shown once."
      columns={keyColumns(actions, keys.some(actions.canManage))}
      rows={keys}
      rowKey={(k) => k.id}
      rowData={(k) => ({ "data-key-id": k.id })}
      empty={
        <EmptyState title="No keys yet">
          Create a test key above: it works at once on demo data, in the playground and from your own code.
        </EmptyState>
      }
    />
  );
}
