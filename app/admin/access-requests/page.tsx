import type { Metadata } from "next";
import Link from "next/link";
import { ActionButton } from "@/components/admin/action-button";
import { utc } from "@/components/admin/format";
import { RejectForm } from "@/components/admin/reject-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { listAllAccessRequests } from "@/lib/domain/access-requests";
import { ACCESS_PROMISE_BUSINESS_DAYS } from "@/lib/domain/business-days";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "API access requests" };
export const dynamic = "force-dynamic";

export default async function AccessRequestsAdminPage() {
  await requireAdmin("/admin/access-requests");
  const requests = await listAllAccessRequests(await portalDb());
  const pending = requests.filter((r) => r.status === "pending");
  const decided = requests.filter((r) => r.status !== "pending").reverse();
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">API access requests</h1>
      <p className="max-w-3xl text-slate-700">
        The promise is an answer within 1–{ACCESS_PROMISE_BUSINESS_DAYS} business days (Monday to Friday, UTC). Approve
        issues an <code>svc_sk_live_</code> key that the requester sees once on their Access requests page; it is never
        shown here.
      </p>
      <section className="space-y-3" aria-labelledby="pending-h">
        <h2 id="pending-h" className="text-xl font-semibold">
          Queue ({pending.length})
        </h2>
        {pending.length === 0 ? (
          <Empty>No pending requests.</Empty>
        ) : (
          <AdminTable
            caption="Pending access requests"
            head={["Company", "Requester", "Use case", "Expected volume", "Age", "Decision"]}
          >
            {pending.map((r) => (
              <tr key={r.id} className={`border-b border-slate-200 ${r.overdue ? "bg-red-50" : ""}`}>
                <td className={cell}>{r.company}</td>
                <td className={cell}>
                  <Link href={`/admin/accounts/${r.accountId}`}>{r.email}</Link>
                </td>
                <td className={cell}>{r.useCase}</td>
                <td className={cell}>{r.expectedVolume}</td>
                <td className={cell}>
                  {r.ageBusinessDays} business day{r.ageBusinessDays === 1 ? "" : "s"}
                  {r.overdue ? <strong className="block text-red-800">Overdue</strong> : null}
                  <span className="block text-xs text-slate-700">since {utc(r.createdAt)}</span>
                </td>
                <td className={`${cell} space-y-2`}>
                  <ActionButton path={`/api/admin/access-requests/${r.id}/approve`} label="Approve" />
                  <RejectForm requestId={r.id} company={r.company} />
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <section className="space-y-3" aria-labelledby="decided-h">
        <h2 id="decided-h" className="text-xl font-semibold">
          Decided
        </h2>
        {decided.length === 0 ? (
          <Empty>No decisions yet.</Empty>
        ) : (
          <AdminTable
            caption="Decided access requests"
            head={["Company", "Requester", "Status", "Decided", "Reason or key"]}
          >
            {decided.map((r) => (
              <tr key={r.id} className="border-b border-slate-200">
                <td className={cell}>{r.company}</td>
                <td className={cell}>{r.email}</td>
                <td className={cell}>{r.status}</td>
                <td className={cell}>{utc(r.decidedAt)}</td>
                <td className={cell}>
                  {r.status === "rejected" ? r.reason : r.keyPrefix ? <code>{r.keyPrefix}…</code> : "—"}
                  {r.status === "approved" ? (
                    <span className="block text-xs text-slate-700">
                      {r.keyWaiting ? "Not yet seen by the requester" : "Seen by the requester"}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </div>
  );
}
