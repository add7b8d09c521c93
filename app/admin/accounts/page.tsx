import type { Metadata } from "next";
import Link from "next/link";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, cell, Empty } from "@/components/admin/table";
import { searchAccounts } from "@/lib/domain/admin-accounts";
import { DomainError } from "@/lib/domain/errors";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Accounts and keys" };
export const dynamic = "force-dynamic";

export default async function AccountsAdminPage({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  await requireAdmin("/admin/accounts");
  const { q } = await searchParams;
  const query = typeof q === "string" ? q : "";
  let results: Awaited<ReturnType<typeof searchAccounts>> | null = null;
  let problem: string | null = null;
  if (query !== "") {
    try {
      results = await searchAccounts(await portalDb(), query);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problem = err.message;
    }
  }
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Accounts and keys</h1>
      <form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <label htmlFor="q" className="text-sm font-medium">
          E-mail, account id or key prefix
          <input
            id="q"
            name="q"
            defaultValue={query}
            maxLength={200}
            className="mt-1 block w-72 max-w-full rounded border border-slate-400 px-2 py-1.5"
            aria-describedby={problem ? "q-error" : undefined}
          />
        </label>
        <button
          type="submit"
          className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
        >
          Search
        </button>
      </form>
      {problem ? (
        <p id="q-error" role="alert" className="text-red-800">
          {problem}
        </p>
      ) : null}
      {results === null ? null : results.length === 0 ? (
        <Empty>No account matches “{query}”.</Empty>
      ) : (
        <AdminTable caption="Matching accounts" head={["Account", "Owner", "Plan", "Status", "Members", "Keys"]}>
          {results.map((a) => (
            <tr key={a.accountId} className="border-b border-slate-200">
              <td className={cell}>
                <Link href={`/admin/accounts/${a.accountId}`}>{a.name}</Link>
                <span className="block text-xs text-slate-700">{a.accountId}</span>
              </td>
              <td className={cell}>{a.owner ?? "—"}</td>
              <td className={cell}>{a.plan}</td>
              <td className={cell}>{a.status}</td>
              <td className={cell}>{a.members}</td>
              <td className={cell}>{a.keys}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
