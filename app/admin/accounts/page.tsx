import type { Metadata } from "next";
import { control } from "@/components/admin/fields";
import { requireAdmin } from "@/components/admin/require-admin";
import { AccountsTable } from "@/components/admin/accounts-table";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader, Section } from "@/components/ui/page";
import { searchAccounts } from "@/lib/domain/admin-accounts";
import { accountHighlights } from "@/lib/domain/admin-account-lists";
import { DomainError } from "@/lib/domain/errors";
import { portalDb } from "@/lib/server/portal-db";
import { fieldAttrs } from "@/lib/contract/field-attrs";
import { searchQuery } from "@/lib/contract/admin-inputs";

export const metadata: Metadata = { title: "Accounts and keys" };
export const dynamic = "force-dynamic";

export default async function AccountsAdminPage({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  await requireAdmin("/admin/accounts");
  const { q } = await searchParams;
  const query = typeof q === "string" ? q : "";
  let results: Awaited<ReturnType<typeof searchAccounts>> | null = null;
  let problem: string | null = null;
  const highlights = query === "" ? await accountHighlights(await portalDb()) : null;
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
        description="The newest and the most active accounts, or find one by a member's e-mail (or part of it), its account id, or a key's prefix; its page has members, plan, keys and usage."
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
            maxLength={fieldAttrs(searchQuery.shape.q).maxLength}
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
      {results === null ? (
        <>
          <Section id="recent-h" title="Recent accounts">
            {highlights && highlights.recent.length > 0 ? (
              <AccountsTable caption="Recent accounts" accounts={highlights.recent} />
            ) : (
              <EmptyState title="No accounts yet." />
            )}
          </Section>
          <Section id="active-h" title="Most active accounts (calls in the last 30 days)">
            {highlights && highlights.active.length > 0 ? (
              <AccountsTable caption="Most active accounts" accounts={highlights.active} />
            ) : (
              <EmptyState title="No account made a call in the last 30 days." />
            )}
          </Section>
        </>
      ) : results.length === 0 ? (
        <EmptyState title={`No account matches “${query}”.`}>
          Try part of the e-mail, the whole account id, or the key prefix the customer quoted.
        </EmptyState>
      ) : (
        <AccountsTable caption="Matching accounts" accounts={results} />
      )}
    </div>
  );
}
