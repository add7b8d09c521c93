import type { Metadata } from "next";
import Link from "next/link";
import { control } from "@/components/admin/fields";
import { requireAdmin } from "@/components/admin/require-admin";
import { AdminTable, Cell, Row } from "@/components/admin/table";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page";
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
    <div className="space-y-8">
      <PageHeader
        title="Accounts and keys"
        description="Find an account by a member's e-mail (or part of it), its account id, or a key's prefix; its page has members, plan, keys and usage."
      />
      <form method="get" role="search" className="space-y-1" noValidate>
        <label htmlFor="q" className="block text-sm font-medium">
          E-mail, account id or key prefix
        </label>
        <div className="flex max-w-xl flex-wrap gap-2">
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={query}
            maxLength={200}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "q-error" : "q-hint"}
            className={`${control} min-w-0 flex-1 basis-56`}
          />
          <Button type="submit" variant="primary">
            Search
          </Button>
        </div>
        {problem ? (
          <p id="q-error" role="alert" className="text-sm text-bad">
            {problem}
          </p>
        ) : (
          <p id="q-hint" className="text-xs text-muted">
            At least 2 characters, e.g. <code>@example.com</code> or <code>svc_live_AB12</code>.
          </p>
        )}
      </form>
      {results === null ? null : results.length === 0 ? (
        <EmptyState title={`No account matches “${query}”.`}>
          Try part of the e-mail, the whole account id, or the key prefix the customer quoted.
        </EmptyState>
      ) : (
        <AdminTable
          caption="Matching accounts"
          columns={[
            { label: "Account" },
            { label: "Owner", width: "w-64" },
            { label: "Plan", width: "w-28" },
            { label: "Status", width: "w-28" },
            { label: "Members", width: "w-24" },
            { label: "Keys", width: "w-20" },
          ]}
        >
          {results.map((a) => (
            <Row key={a.accountId}>
              <Cell label="Account">
                <Link href={`/admin/accounts/${a.accountId}`} className="font-medium">
                  {a.name}
                </Link>
                <span className="block text-xs text-muted">{a.accountId}</span>
              </Cell>
              <Cell label="Owner">{a.owner ?? "—"}</Cell>
              <Cell label="Plan">{a.plan}</Cell>
              <Cell label="Status">
                <Badge tone={a.status === "active" ? "ok" : "neutral"}>{a.status}</Badge>
              </Cell>
              <Cell label="Members" className="tabular-nums">
                {a.members}
              </Cell>
              <Cell label="Keys" className="tabular-nums">
                {a.keys}
              </Cell>
            </Row>
          ))}
        </AdminTable>
      )}
    </div>
  );
}
