import type { Metadata } from "next";
import Link from "next/link";
import { utc } from "@/components/admin/format";
import { LicensingFilter } from "@/components/admin/licensing-filter";
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
      <Section id="endpoints-h" title={`Endpoints by environment (${rows.length} of ${all.length})`}>
        <LicensingFilter filter={filter} routes={endpoints.map((e) => e.label)} />
        {rows.length === 0 ? (
          <EmptyState title="No endpoint matches these filters.">
            <Link href="/admin/licensing">Clear the filters</Link>
          </EmptyState>
        ) : null}
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
