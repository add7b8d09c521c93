import { ActionButton } from "@/components/admin/action-button";
import { ago, utc } from "@/components/admin/format";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge } from "@/components/ui/badge";
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
      <AdminTable
        caption="Market-data sync per kind"
        columns={[
          { label: "Kind", width: "w-24" },
          { label: "Schedule", width: "w-40" },
          { label: "Last run", width: "w-44" },
          { label: "Age", width: "w-24" },
          { label: "Status", width: "w-24" },
          { label: "Live data", width: "w-56" },
          { label: "Message" },
          { label: "Action", width: "w-32" },
        ]}
      >
        {status.kinds.map((k) => (
          <SyncKindRow key={k.kind} kind={k} now={now} />
        ))}
      </AdminTable>
    </>
  );
}

function SyncKindRow({ kind: k, now }: { kind: SyncKindStatus; now: Date }) {
  const stale = k.data.stale;
  return (
    <Row tone={k.late || k.lastRun?.status === "failed" || stale.length > 0 ? "bad" : undefined}>
      <Cell label="Kind">
        <code className="text-xs">sync:{k.kind}</code>
      </Cell>
      <Cell label="Schedule">
        <code className="text-xs">{k.cron}</code> ({k.window.replace("_", " ")}, late after {k.lateAfterMinutes} min)
      </Cell>
      <Cell label="Last run" className="tabular-nums">
        {utc(k.lastRun?.at)}
        {k.lastRun ? ` · ${k.lastRun.rows} rows · ${k.lastRun.durationMs ?? "—"} ms` : ""}
      </Cell>
      <Cell label="Age">{ago(k.lastApplied, now)}</Cell>
      <Cell label="Status">
        {k.lastRun?.status === "failed" ? (
          <Badge tone="bad">Failed</Badge>
        ) : k.late ? (
          <Badge tone="bad">Late</Badge>
        ) : (
          <Badge tone="ok">Fresh</Badge>
        )}
      </Cell>
      <Cell label="Live data">
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
      </Cell>
      <Cell label="Message" className="break-words">
        {k.lastRun?.error ?? stale[0]?.message ?? "—"}
      </Cell>
      <Cell label="Action">
        <ActionButton
          path={`/api/admin/market-sync/${k.kind}/run`}
          label="Run now"
          name={`Run now: ${k.kind}`}
          title={`Run the ${k.kind} sync now?`}
          effect={`Fetches ${k.kind} from the market-data vendor now and applies it to the live store; the run is recorded and audited.`}
        />
      </Cell>
    </Row>
  );
}
