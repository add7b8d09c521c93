import type { Metadata } from "next";
import Link from "next/link";
import { LicensingFilter } from "@/components/admin/licensing-filter";
import { LicensingForm } from "@/components/admin/licensing-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { ENDPOINT_COLUMNS, HISTORY_COLUMNS } from "@/components/admin/licensing-columns";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, Section } from "@/components/ui/page";
import { licensingHistory, listLicensing } from "@/lib/domain/admin-licensing";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Licensing review" };
export const dynamic = "force-dynamic";

type Filter = { route?: string; env?: string; state?: string };
const pick = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

export default async function LicensingPage({
  searchParams,
}: {
  searchParams: Promise<{ history?: string } & Filter>;
}) {
  await requireAdmin("/admin/licensing");
  const db = await portalDb();
  const all = await listLicensing(db);
  const params = await searchParams;
  const { history } = params;
  const filter: Filter = { route: pick(params.route), env: pick(params.env), state: pick(params.state) };
  const rows = all.filter(
    (r) =>
      (!filter.route || `${r.method} ${r.path}`.toLowerCase().includes(filter.route.toLowerCase())) &&
      (!filter.env || r.env === filter.env) &&
      (!filter.state || r.state === filter.state),
  );
  const shown = typeof history === "string" && all.some((r) => r.endpointId === history) ? history : null;
  const items = shown ? await licensingHistory(db, shown) : [];
  const endpoints = [
    ...new Map(all.map((r) => [r.endpointId, { id: r.endpointId, label: `${r.method} ${r.path}` }])).values(),
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
          <DataTable
            caption="Licensing history"
            columns={HISTORY_COLUMNS}
            rows={items}
            rowKey={(h) => h.id}
            empty={
              <EmptyState title="No changes recorded yet.">The state is still the catalogue's default.</EmptyState>
            }
            wrap
          />
        </Section>
      ) : null}
      <Section id="endpoints-h" title={`Endpoints by environment (${rows.length} of ${all.length})`}>
        <LicensingFilter filter={filter} routes={endpoints.map((e) => e.label)} />
        {rows.length === 0 ? (
          <EmptyState title="No endpoint matches these filters.">
            <Link href="/admin/licensing">Clear the filters</Link>
          </EmptyState>
        ) : null}
        <DataTable
          caption="Endpoints by environment"
          columns={ENDPOINT_COLUMNS}
          rows={rows}
          rowKey={(r) => `${r.endpointId}-${r.env}`}
          wrap
        />
      </Section>
    </div>
  );
}
