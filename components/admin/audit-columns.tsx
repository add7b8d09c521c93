import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import type { AuditRow } from "@/lib/domain/admin-audit";
import { AuditDiff } from "./audit-diff";
import { utc } from "./format";

/** An audit entry: when (and its request id), who, what, on what (by its label, the id on hover), the change and why. */
export const auditColumns = (labels: Map<string, string>): Column<AuditRow>[] => [
  {
    id: "when",
    header: "When and request id",
    width: "w-36",
    className: "text-xs",
    cell: (r) => (
      <>
        <span className="tabular-nums">{utc(r.at)}</span>
        <span className="block font-mono text-muted">{r.requestId ?? "no request id"}</span>
      </>
    ),
  },
  {
    id: "actor",
    header: "Actor",
    width: "w-1/6",
    className: "text-xs",
    cell: (r) => (
      <>
        <span title={`${r.actorType}:${r.actorId}`}>{r.actor}</span>{" "}
        <Badge tone={r.actorType === "admin" ? "info" : "neutral"}>{r.actorType}</Badge>
      </>
    ),
  },
  { id: "action", header: "Action", width: "w-36", className: "text-xs", cell: (r) => <code>{r.action}</code> },
  {
    id: "target",
    header: "Target",
    width: "w-1/6",
    className: "text-xs",
    cell: (r) => (
      <span title={r.target} className="break-words">
        {labels.get(r.target) ?? r.target}
      </span>
    ),
  },
  {
    id: "change",
    header: "Before and after",
    className: "text-xs",
    cell: (r) => <AuditDiff before={r.before} after={r.after} />,
  },
  { id: "reason", header: "Reason", width: "w-1/6", className: "text-xs", cell: (r) => r.reason ?? "—" },
];
