import type { Metadata } from "next";
import Link from "next/link";
import { utc } from "@/components/admin/format";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { queryAudit } from "@/lib/domain/admin-audit";
import { DomainError } from "@/lib/domain/errors";
import { auditQuery } from "@/lib/portal/admin-schemas";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

const FIELDS = [
  { name: "actor", label: "Actor", hint: "e.g. admin:<user id> or cli:operator" },
  { name: "action", label: "Action", hint: "e.g. key.deactivate, or key. for all key events" },
  { name: "target", label: "Target", hint: "e.g. key:<id>, endpoint:GET /api/v1/options-flow, or an account id" },
  { name: "from", label: "From", hint: "UTC, e.g. 2026-01-31 or 2026-01-31T12:00" },
  { name: "to", label: "To", hint: "UTC" },
] as const;

const json = (v: unknown) => (v === null || v === undefined ? "—" : JSON.stringify(v));

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  await requireAdmin("/admin/audit");
  const raw = Object.fromEntries(
    Object.entries(await searchParams).filter(([, v]) => typeof v === "string" && v !== ""),
  ) as Record<string, string>;
  const parsed = auditQuery.safeParse(raw);
  const filter = parsed.success ? parsed.data : {};
  let page: Awaited<ReturnType<typeof queryAudit>> | null = null;
  let problem: string | null = parsed.success ? null : "A filter is too long.";
  if (!problem) {
    try {
      page = await queryAudit(await portalDb(), filter);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problem = err.message;
    }
  }
  const { cursor: _cursor, ...filters } = filter;
  const qs = (extra: Record<string, string>) => new URLSearchParams({ ...filters, ...extra }).toString();
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Audit log</h1>
      <p className="max-w-3xl text-slate-700">
        Every admin action, key lifecycle event, sign-in failure and plan change, newest first. The log is append-only.
      </p>
      <form method="get" className="grid gap-3 md:grid-cols-3">
        {FIELDS.map((f) => (
          <label key={f.name} className="block text-sm font-medium">
            {f.label}
            <input
              name={f.name}
              defaultValue={(filter as Record<string, string | undefined>)[f.name] ?? ""}
              placeholder={f.hint}
              maxLength={200}
              className="mt-1 block w-full rounded border border-slate-400 px-2 py-1.5 placeholder:text-slate-600"
            />
          </label>
        ))}
        <div className="flex items-end gap-3">
          <button
            type="submit"
            className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
          >
            Filter
          </button>
          <a
            href={`/api/admin/audit/export?${qs({})}`}
            className="rounded border border-blue-700 px-3 py-1.5 font-medium text-blue-800 no-underline hover:bg-blue-50"
            download
          >
            Export CSV
          </a>
        </div>
      </form>
      {problem ? (
        <p role="alert" className="text-red-800">
          {problem}
        </p>
      ) : null}
      {page && page.rows.length === 0 ? <Empty>No audit entries match.</Empty> : null}
      {page && page.rows.length > 0 ? (
        <AdminTable
          caption="Audit entries"
          head={["When", "Actor", "Action", "Target", "Before", "After", "Reason", "Request id"]}
        >
          {page.rows.map((r) => (
            <tr key={r.id} className="border-b border-slate-200 text-xs">
              <td className={cell}>{utc(r.at)}</td>
              <td className={cell}>
                {r.actorType}:{r.actorId}
              </td>
              <td className={cell}>{r.action}</td>
              <td className={cell}>{r.target}</td>
              <td className={cell}>{json(r.before)}</td>
              <td className={cell}>{json(r.after)}</td>
              <td className={cell}>{r.reason ?? "—"}</td>
              <td className={cell}>{r.requestId ?? "—"}</td>
            </tr>
          ))}
        </AdminTable>
      ) : null}
      <nav aria-label="Audit pages" className="flex gap-4">
        {filter.cursor ? <Link href={`/admin/audit?${qs({})}`}>Newest</Link> : null}
        {page?.nextCursor ? <Link href={`/admin/audit?${qs({ cursor: page.nextCursor })}`}>Older entries</Link> : null}
      </nav>
    </div>
  );
}
