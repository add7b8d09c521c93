"use client";

import type { RequestLogEntry } from "@/lib/shared/usage-types";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { actionsColumn, type Column, DataTable } from "@/components/ui/data-table";
import { Truncate } from "@/components/ui/truncate";
import { errorMessageOf } from "./response-body";

/** An error's code and, when kept, its message: one line, cut; the whole of it on hover, on focus and in Details. */
const errorLine = (e: RequestLogEntry) => {
  const message = errorMessageOf(e.errorBody);
  return message ? `${e.errorCode}: ${message}` : (e.errorCode ?? "");
};

type Props = {
  entries: RequestLogEntry[];
  keyName: (id: string) => string | undefined;
  onOpen: (entry: RequestLogEntry) => void;
};

const logColumns = ({ keyName, onOpen }: Omit<Props, "entries">): Column<RequestLogEntry>[] => [
  {
    id: "time",
    header: "Time (UTC)",
    width: "w-40",
    label: false,
    className: "text-xs text-muted tabular-nums",
    cell: (e) => e.time.slice(0, 19).replace("T", " "),
  },
  {
    id: "request",
    header: "Request",
    label: false,
    className: "min-w-0",
    cell: (e) => (
      <span className="flex min-w-0 items-baseline gap-2">
        <span className="w-10 shrink-0 font-mono text-xs font-semibold text-muted">{e.method}</span>
        <Truncate text={e.path} min={30} className="font-mono text-xs" />
      </span>
    ),
  },
  {
    id: "status",
    header: "Status",
    width: "w-56",
    label: false,
    className: "min-w-0",
    cell: (e) => (
      <span className="flex min-w-0 items-center gap-2">
        <Badge tone={statusTone(e.status)}>{e.status}</Badge>
        {e.errorCode ? <Truncate text={errorLine(e)} min={26} className="font-mono text-xs" /> : null}
      </span>
    ),
  },
  {
    id: "latency",
    header: "Latency",
    width: "w-20",
    align: "right",
    className: "text-xs tabular-nums",
    cell: (e) => `${e.latencyMs} ms`,
  },
  {
    id: "key",
    header: "Key",
    width: "w-36",
    className: "text-xs",
    cell: (e) => <Truncate text={keyName(e.keyId) ?? `${e.keyPrefix}…`} min={20} />,
  },
  actionsColumn(
    (e) => (
      <Button size="sm" variant="ghost" onClick={() => onOpen(e)} aria-label={`Details of ${e.requestId}`}>
        Details
      </Button>
    ),
    { header: "Details", width: "w-20" },
  ),
];

/** The log's rows: one call each, newest first; an error shows its message, and Details (or a click on the row) opens the whole call. */
export function RequestLogTable({ entries, ...actions }: Props) {
  return (
    <DataTable
      ariaLabel="Request log"
      columns={logColumns(actions)}
      rows={entries}
      rowKey={(e) => e.id}
      rowData={(e) => ({ "data-request-id": e.requestId })}
      onRowClick={actions.onOpen}
    />
  );
}
