import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import type { listAllAccessRequests } from "@/lib/domain/access-requests";
import { EXPECTED_VOLUMES } from "@/lib/shared/access-volumes";
import { ActionButton } from "./action-button";
import { utc } from "./format";

type AccessRequest = Awaited<ReturnType<typeof listAllAccessRequests>>[number];

const days = (n: number) => `${n} business day${n === 1 ? "" : "s"}`;

function Decision({ r }: { r: AccessRequest }) {
  return (
    <span className="flex flex-wrap gap-2">
      <ActionButton
        path={`/api/admin/access-requests/${r.id}/approve`}
        label="Approve"
        name={`Approve ${r.company}`}
        title={`Approve ${r.company}'s request?`}
        effect={
          <>
            Issues a live key (<code>svc_sk_live_</code>) to account {r.email}, shown to them once on their Access
            requests page (never here), and mails {r.email} that it waits.
          </>
        }
        tone="primary"
      />
      <ActionButton
        path={`/api/admin/access-requests/${r.id}/reject`}
        label="Reject"
        name={`Reject ${r.company}`}
        title={`Reject ${r.company}'s request?`}
        effect={<>No key is issued. {r.email} sees the reason on their Access requests page.</>}
        reason
        tone="danger"
      />
    </span>
  );
}

/** The queue: who asks and for what, how long they have waited (overdue flagged), Approve and Reject. */
export const PENDING_COLUMNS: Column<AccessRequest>[] = [
  {
    id: "requester",
    header: "Company and requester",
    width: "w-1/4",
    cell: (r) => (
      <>
        <span className="block font-medium">{r.company}</span>
        <Link href={`/admin/accounts/${r.accountId}`} className="text-xs">
          {r.email}
        </Link>
      </>
    ),
  },
  { id: "use-case", header: "Use case", cell: (r) => r.useCase },
  {
    id: "volume",
    header: "Expected volume",
    width: "w-32",
    cell: (r) => EXPECTED_VOLUMES[r.expectedVolume] ?? r.expectedVolume,
  },
  {
    id: "age",
    header: "Age",
    width: "w-36",
    cell: (r) => (
      <>
        <span className="tabular-nums">{days(r.ageBusinessDays)}</span>
        {r.overdue ? (
          <Badge tone="bad" className="ml-1">
            Overdue
          </Badge>
        ) : null}
        <span className="block text-xs text-muted">since {utc(r.createdAt)}</span>
      </>
    ),
  },
  { id: "decision", header: "Decision", width: "w-56", className: "space-y-3", cell: (r) => <Decision r={r} /> },
];

/** Decided requests: the answer, when, how long it took (late flagged), and the reason or the key's prefix. */
export const DECIDED_COLUMNS: Column<AccessRequest>[] = [
  {
    id: "requester",
    header: "Company and requester",
    width: "w-1/4",
    cell: (r) => (
      <>
        <span className="block font-medium">{r.company}</span>
        <span className="text-xs text-muted">{r.email}</span>
      </>
    ),
  },
  {
    id: "status",
    header: "Status",
    width: "w-28",
    cell: (r) => (
      <Badge tone={r.status === "approved" ? "ok" : "neutral"}>
        {r.status === "approved" ? "Approved" : "Rejected"}
      </Badge>
    ),
  },
  { id: "decided", header: "Decided", width: "w-40", className: "tabular-nums", cell: (r) => utc(r.decidedAt) },
  {
    id: "answered",
    header: "Answered in",
    width: "w-36",
    cell: (r) => (
      <>
        {days(r.ageBusinessDays)}
        {r.overdue ? (
          <Badge tone="bad" className="ml-1">
            Late
          </Badge>
        ) : null}
      </>
    ),
  },
  {
    id: "outcome",
    header: "Reason or key",
    cell: (r) => (
      <>
        {r.status === "rejected" ? r.reason : r.keyPrefix ? <code>{r.keyPrefix}…</code> : "—"}
        {r.status === "approved" ? (
          <span className="block text-xs text-muted">
            {r.keyWaiting ? "Not yet seen by the requester" : "Seen by the requester"}
          </span>
        ) : null}
      </>
    ),
  },
];
