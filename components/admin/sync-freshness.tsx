import { ActionButton } from "@/components/admin/action-button";
import { ago, utc } from "@/components/admin/format";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import type { SyncKindStatus, SyncStatus } from "@/lib/domain/market-sync-status";

/**
 * The live market-data sync kinds (docs/market-data.md): schedule, last run, age against the schedule, the live
 * data against its staleness bound (what the API refuses), a failure's message and `Run now`. Shown once a provider
 * is set or a sync has run; never shows the vendor key.
 */
export function SyncFreshness({ status, now }: { status: SyncStatus; now: Date }) {
  if (!status.provider && status.kinds.every((k) => !k.lastRun)) return null;
  return (
    <>
      <p className="max-w-3xl text-sm text-muted">
        Live market-data sync from <code className="text-xs">{status.provider ?? "massive"}</code>
        {status.keySet ? "" : " (no API key set)"}: each kind's schedule (New York time) and its last run. A kind is
        late when its newest applied run is older than its bound against the schedule; its live data is stale past its
        staleness bound, and then the API answers 503 for what reads it.
      </p>
      <DataTable
        caption="Market-data sync per kind"
        columns={syncColumns(now)}
        rows={status.kinds}
        rowKey={(k) => k.kind}
        rowTone={(k) => (k.late || k.lastRun?.status === "failed" || k.data.stale.length > 0 ? "bad" : undefined)}
        wrap
      />
    </>
  );
}

function RunStatus({ kind: k }: { kind: SyncKindStatus }) {
  if (k.lastRun?.status === "failed") return <Badge tone="bad">Failed</Badge>;
  return k.late ? <Badge tone="bad">Late</Badge> : <Badge tone="ok">Fresh</Badge>;
}

function LiveData({ kind: k, now }: { kind: SyncKindStatus; now: Date }) {
  const stale = k.data.stale;
  return (
    <>
      {!k.data.bound ? (
        <Badge tone="neutral">No bound</Badge>
      ) : stale.length > 0 ? (
        <Badge tone="bad">
          {stale[0].subject ? `Stale: ${stale.length} symbol${stale.length === 1 ? "" : "s"}` : "Stale"}
        </Badge>
      ) : (
        <Badge tone="ok">Within bound</Badge>
      )}{" "}
      {k.data.asOf ? `as of ${ago(k.data.asOf, now)}` : ""}
      <span className="block text-xs text-muted">{k.data.bound ?? "reference data: never refused"}</span>
    </>
  );
}

/** The freshness table's columns: what runs when, how its last run went, and the live data against its bound. */
const syncColumns = (now: Date): Column<SyncKindStatus>[] => [
  { id: "kind", header: "Kind", width: "w-24", cell: (k) => <code className="text-xs">sync:{k.kind}</code> },
  {
    id: "schedule",
    header: "Schedule",
    width: "w-40",
    cell: (k) => (
      <>
        <code className="text-xs">{k.cron}</code> ({k.window.replace("_", " ")}, late after {k.lateAfterMinutes} min)
      </>
    ),
  },
  {
    id: "last-run",
    header: "Last run",
    width: "w-44",
    className: "tabular-nums",
    cell: (k) =>
      `${utc(k.lastRun?.at)}${k.lastRun ? ` · ${k.lastRun.rows} rows · ${k.lastRun.durationMs ?? "—"} ms` : ""}`,
  },
  { id: "age", header: "Age", width: "w-24", cell: (k) => ago(k.lastApplied, now) },
  { id: "status", header: "Status", width: "w-24", cell: (k) => <RunStatus kind={k} /> },
  { id: "live-data", header: "Live data", width: "w-56", cell: (k) => <LiveData kind={k} now={now} /> },
  {
    id: "message",
    header: "Message",
    className: "break-words",
    cell: (k) => k.lastRun?.error ?? k.data.stale[0]?.message ?? "—",
  },
  {
    id: "action",
    header: "Action",
    width: "w-32",
    cell: (k) => (
      <ActionButton
        path={`/api/admin/market-sync/${k.kind}/run`}
        label="Run now"
        name={`Run now: ${k.kind}`}
        title={`Run the ${k.kind} sync now?`}
        effect={`Fetches ${k.kind} from the market-data vendor now and applies it to the live store; the run is recorded and audited.`}
      />
    ),
  },
];
