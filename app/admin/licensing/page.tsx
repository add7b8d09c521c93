import type { Metadata } from "next";
import Link from "next/link";
import { utc } from "@/components/admin/format";
import { LicensingForm } from "@/components/admin/licensing-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, Section } from "@/components/ui/page";
import { licensingHistory, listLicensing } from "@/lib/domain/admin-licensing";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Licensing review" };
export const dynamic = "force-dynamic";

const State = ({ state }: { state: string | null }) =>
  state === null ? <>—</> : <Badge tone={state === "enabled" ? "ok" : "warn"}>{state}</Badge>;

export default async function LicensingPage({ searchParams }: { searchParams: Promise<{ history?: string }> }) {
  await requireAdmin("/admin/licensing");
  const db = await portalDb();
  const rows = await listLicensing(db);
  const { history } = await searchParams;
  const shown = typeof history === "string" && rows.some((r) => r.endpointId === history) ? history : null;
  const items = shown ? await licensingHistory(db, shown) : [];
  const endpoints = [
    ...new Map(rows.map((r) => [r.endpointId, { id: r.endpointId, label: `${r.method} ${r.path}` }])).values(),
  ];
  return (
    <div className="space-y-8">
      <PageHeader
        title="Licensing review"
        description={
          <>
            An endpoint pending a data-licensing review answers 403 <code>endpoint_pending_licensing</code> to keys of
            that environment. A change reaches every server process within 5 seconds and is recorded in the{" "}
            <Link href="/admin/audit?action=endpoint.set_licensing">audit log</Link>. Live keys are served only what the
            live store holds: import the vendor's files first (<code>cli import</code>, see docs/admin.md).
          </>
        }
      />
      <LicensingForm endpoints={endpoints} />
      {history !== undefined && !shown ? (
        <p role="alert" className="text-sm text-bad">
          There is no endpoint “{String(history).slice(0, 80)}”; pick a row’s History link.
        </p>
      ) : null}
      {shown ? (
        <Section id="history" title={`History of ${shown}`}>
          {items.length === 0 ? (
            <EmptyState title="No changes recorded yet.">The state is still the catalogue's default.</EmptyState>
          ) : (
            <AdminTable
              caption="Licensing history"
              columns={[
                { label: "When", width: "w-40" },
                { label: "Who", width: "w-1/5" },
                { label: "Environment", width: "w-28" },
                { label: "Before", width: "w-36" },
                { label: "After", width: "w-36" },
                { label: "Reason" },
              ]}
            >
              {items.map((h) => (
                <Row key={h.id}>
                  <Cell label="When" className="tabular-nums">
                    {utc(h.at)}
                  </Cell>
                  <Cell label="Who">{h.actor}</Cell>
                  <Cell label="Environment">{h.env ?? "—"}</Cell>
                  <Cell label="Before">
                    <State state={h.before} />
                  </Cell>
                  <Cell label="After">
                    <State state={h.after} />
                  </Cell>
                  <Cell label="Reason">{h.reason ?? "—"}</Cell>
                </Row>
              ))}
            </AdminTable>
          )}
        </Section>
      ) : null}
      <Section id="endpoints-h" title="Endpoints by environment">
        <AdminTable
          caption="Endpoints by environment"
          columns={[
            { label: "Endpoint" },
            { label: "Environment", width: "w-24" },
            { label: "State", width: "w-40" },
            { label: "Reason", width: "w-1/5" },
            { label: "Changed", width: "w-56" },
            { label: "History", width: "w-20", hidden: true },
          ]}
        >
          {rows.map((r) => (
            <Row key={`${r.endpointId}-${r.env}`}>
              <Cell label="Endpoint">
                <code className="text-xs">
                  {r.method} {r.path}
                </code>{" "}
                <span className="text-xs text-muted">(family {r.family})</span>
              </Cell>
              <Cell label="Environment">{r.env}</Cell>
              <Cell label="State">
                <State state={r.state} />
              </Cell>
              <Cell label="Reason">{r.reason ?? "—"}</Cell>
              <Cell label="Changed">
                {r.changedBy ?? "—"}
                <span className="block text-xs text-muted tabular-nums">{utc(r.changedAt)}</span>
              </Cell>
              <Cell label="History">
                <Link href={`/admin/licensing?history=${encodeURIComponent(r.endpointId)}#history`}>
                  History
                  <span className="sr-only">
                    {" "}
                    of {r.method} {r.path} ({r.env})
                  </span>
                </Link>
              </Cell>
            </Row>
          ))}
        </AdminTable>
      </Section>
    </div>
  );
}
