import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionButton } from "@/components/admin/action-button";
import { utc } from "@/components/admin/format";
import { PlanForm } from "@/components/admin/plan-form";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { accountDetail, isAccountId } from "@/lib/domain/admin-accounts";
import { PLAN_IDS } from "@/lib/domain/plans-catalogue";
import { portalDb } from "@/lib/server/portal-db";
import { DomainError } from "@/lib/domain/errors";

export const metadata: Metadata = { title: "Account" };
export const dynamic = "force-dynamic";

export default async function AccountAdminPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const me = await requireAdmin(`/admin/accounts/${encodeURIComponent(id)}`);
  if (!isAccountId(id)) notFound();
  const a = await accountDetail(await portalDb(), id).catch((err) => {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  });
  const base = `/api/admin/accounts/${a.accountId}`;
  const byEndpoint = new Map<string, number>();
  for (const r of a.usage.rows) byEndpoint.set(r.endpointId, (byEndpoint.get(r.endpointId) ?? 0) + r.calls);
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold break-words">{a.name}</h1>
        <p className="text-sm text-slate-700">
          Account <code>{a.accountId}</code> · created {utc(a.createdAt)} · status <strong>{a.status}</strong>
        </p>
      </div>
      <section className="space-y-3" aria-labelledby="plan-h">
        <h2 id="plan-h" className="text-xl font-semibold">
          Plan and status
        </h2>
        <PlanForm accountId={a.accountId} plan={a.plan} plans={PLAN_IDS} />
        {a.status === "active" ? (
          <ActionButton
            path={`${base}/status`}
            body={{ status: "inactive" }}
            label="Deactivate"
            tone="danger"
            confirm="Deactivate this account? Its sign-in, keys and webhooks stop."
          />
        ) : (
          <ActionButton path={`${base}/status`} body={{ status: "active" }} label="Reactivate" />
        )}
      </section>
      <section className="space-y-3" aria-labelledby="members-h">
        <h2 id="members-h" className="text-xl font-semibold">
          Members
        </h2>
        <AdminTable caption="Members" head={["E-mail", "Role", "Verified", "Admin", "Change"]}>
          {a.members.map((m) => (
            <tr key={m.userId} className="border-b border-slate-200">
              <td className={cell}>{m.email}</td>
              <td className={cell}>{m.role}</td>
              <td className={cell}>{m.verified ? "yes" : "no"}</td>
              <td className={cell}>{m.admin ? "yes" : "no"}</td>
              <td className={cell}>
                {m.admin ? (
                  m.userId === me.userId ? (
                    <span className="text-xs text-slate-700">You cannot remove your own flag.</span>
                  ) : (
                    <ActionButton
                      path={`${base}/members/${m.userId}/admin`}
                      body={{ admin: false }}
                      label="Remove admin"
                      tone="danger"
                    />
                  )
                ) : (
                  <ActionButton path={`${base}/members/${m.userId}/admin`} body={{ admin: true }} label="Make admin" />
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </section>
      <section className="space-y-3" aria-labelledby="keys-h">
        <h2 id="keys-h" className="text-xl font-semibold">
          Keys
        </h2>
        {a.keys.length === 0 ? (
          <Empty>This account has no keys.</Empty>
        ) : (
          <AdminTable
            caption="Keys"
            head={["Name", "Prefix", "Environment", "Status", "Created", "Last used", "Change"]}
          >
            {a.keys.map((k) => (
              <tr key={k.id} className="border-b border-slate-200">
                <td className={cell}>{k.name}</td>
                <td className={cell}>
                  <code>{k.prefix}</code>
                </td>
                <td className={cell}>{k.env}</td>
                <td className={cell}>{k.state}</td>
                <td className={cell}>{utc(k.createdAt)}</td>
                <td className={cell}>{utc(k.lastUsedAt)}</td>
                <td className={cell}>
                  {k.status === "active" ? (
                    <ActionButton
                      path={`${base}/keys/${k.id}/status`}
                      body={{ status: "inactive" }}
                      label="Deactivate"
                      tone="danger"
                    />
                  ) : k.status === "inactive" ? (
                    <ActionButton path={`${base}/keys/${k.id}/status`} body={{ status: "active" }} label="Reactivate" />
                  ) : (
                    <span className="text-xs text-slate-700">Revoked</span>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
      <section className="space-y-3" aria-labelledby="usage-h">
        <h2 id="usage-h" className="text-xl font-semibold">
          Usage (30 days): {a.usage.totalCalls} calls
        </h2>
        {byEndpoint.size === 0 ? (
          <Empty>No calls in the last 30 days.</Empty>
        ) : (
          <AdminTable caption="Calls per endpoint, 30 days" head={["Endpoint", "Calls"]}>
            {[...byEndpoint].map(([endpoint, calls]) => (
              <tr key={endpoint} className="border-b border-slate-200">
                <td className={cell}>
                  <code>{endpoint}</code>
                </td>
                <td className={cell}>{calls}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </section>
    </div>
  );
}
