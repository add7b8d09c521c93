import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import type { LicensingHistoryItem, LicensingRow } from "@/lib/domain/admin-licensing";
import { utc } from "./format";

const STATE_WORDS: Record<string, string> = { enabled: "Enabled", pending_licensing: "Pending licensing" };

/** A state in words with its code (the code is what the CLI and the API take). */
const State = ({ state }: { state: string | null }) =>
  state === null ? (
    <>—</>
  ) : (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone={state === "enabled" ? "ok" : "warn"}>{STATE_WORDS[state] ?? state}</Badge>
      <code className="text-xs text-muted">{state}</code>
    </span>
  );

/** One endpoint's licensing changes: when, who, which environment, the state before and after, and why. */
export const HISTORY_COLUMNS: Column<LicensingHistoryItem>[] = [
  { id: "when", header: "When", width: "w-40", className: "tabular-nums", cell: (h) => utc(h.at) },
  { id: "who", header: "Who", width: "w-1/5", cell: (h) => h.actor },
  { id: "environment", header: "Environment", width: "w-28", cell: (h) => h.env ?? "—" },
  { id: "before", header: "Before", width: "w-36", cell: (h) => <State state={h.before} /> },
  { id: "after", header: "After", width: "w-36", cell: (h) => <State state={h.after} /> },
  { id: "reason", header: "Reason", cell: (h) => h.reason ?? "—" },
];

/** Each endpoint per environment: its state, why, who changed it when, and a link to its history. */
export const ENDPOINT_COLUMNS: Column<LicensingRow>[] = [
  {
    id: "endpoint",
    header: "Endpoint",
    cell: (r) => (
      <>
        <code className="text-xs">
          {r.method} {r.path}
        </code>{" "}
        <span className="text-xs text-muted">(family {r.family})</span>
      </>
    ),
  },
  { id: "environment", header: "Environment", width: "w-24", cell: (r) => r.env },
  { id: "state", header: "State", width: "w-40", cell: (r) => <State state={r.state} /> },
  { id: "reason", header: "Reason", width: "w-1/5", cell: (r) => r.reason ?? "—" },
  {
    id: "changed",
    header: "Changed",
    width: "w-56",
    cell: (r) => (
      <>
        {r.changedBy ?? "—"}
        <span className="block text-xs text-muted tabular-nums">{utc(r.changedAt)}</span>
      </>
    ),
  },
  {
    id: "history",
    header: "History",
    width: "w-20",
    srOnlyHeader: true,
    cell: (r) => (
      <Link href={`/admin/licensing?history=${encodeURIComponent(r.endpointId)}#history`}>
        History
        <span className="sr-only">
          {" "}
          of {r.method} {r.path} ({r.env})
        </span>
      </Link>
    ),
  },
];
