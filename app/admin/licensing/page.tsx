import type { Metadata } from "next";
import Link from "next/link";
import { utc } from "@/components/admin/format";
import { LicensingForm } from "@/components/admin/licensing-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { licensingHistory, listLicensing } from "@/lib/domain/admin-licensing";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Licensing review" };
export const dynamic = "force-dynamic";

export default async function LicensingPage({ searchParams }: { searchParams: Promise<{ history?: string }> }) {
  await requireAdmin("/admin/licensing");
  const db = await portalDb();
  const rows = await listLicensing(db);
  const { history } = await searchParams;
  const shown = history && rows.some((r) => r.endpointId === history) ? history : null;
  const items = shown ? await licensingHistory(db, shown) : [];
  const endpoints = [
    ...new Map(rows.map((r) => [r.endpointId, { id: r.endpointId, label: `${r.method} ${r.path}` }])).values(),
  ];
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Licensing review</h1>
      <p className="max-w-3xl text-slate-700">
        An endpoint pending a data-licensing review answers 403 <code>endpoint_pending_licensing</code> to keys of that
        environment. A change reaches every server process within 5 seconds and is recorded in the audit log.
      </p>
      <LicensingForm endpoints={endpoints} />
      {shown ? (
        <section id="history" className="space-y-3" aria-labelledby="history-h">
          <h2 id="history-h" className="text-xl font-semibold">
            History of <code>{shown}</code>
          </h2>
          {items.length === 0 ? (
            <Empty>No changes recorded yet.</Empty>
          ) : (
            <AdminTable caption="Licensing history" head={["When", "Who", "Environment", "Before", "After", "Reason"]}>
              {items.map((h) => (
                <tr key={h.id} className="border-b border-slate-200">
                  <td className={cell}>{utc(h.at)}</td>
                  <td className={cell}>{h.actor}</td>
                  <td className={cell}>{h.env}</td>
                  <td className={cell}>{h.before ?? "—"}</td>
                  <td className={cell}>{h.after}</td>
                  <td className={cell}>{h.reason}</td>
                </tr>
              ))}
            </AdminTable>
          )}
        </section>
      ) : null}
      <AdminTable
        caption="Endpoints by environment"
        head={["Endpoint", "Environment", "State", "Reason", "Changed by", "Changed", "History"]}
      >
        {rows.map((r) => (
          <tr key={`${r.endpointId}-${r.env}`} className="border-b border-slate-200">
            <td className={cell}>
              <code>
                {r.method} {r.path}
              </code>{" "}
              <span className="text-xs text-slate-700">({r.family})</span>
            </td>
            <td className={cell}>{r.env}</td>
            <td className={cell}>
              {r.state === "enabled" ? (
                <span className="text-green-800">enabled</span>
              ) : (
                <strong className="text-amber-900">pending_licensing</strong>
              )}
            </td>
            <td className={cell}>{r.reason ?? "—"}</td>
            <td className={cell}>{r.changedBy ?? "—"}</td>
            <td className={cell}>{utc(r.changedAt)}</td>
            <td className={cell}>
              <Link href={`/admin/licensing?history=${encodeURIComponent(r.endpointId)}#history`}>
                History
                <span className="sr-only">
                  {" "}
                  of {r.method} {r.path} ({r.env})
                </span>
              </Link>
            </td>
          </tr>
        ))}
      </AdminTable>
    </div>
  );
}
