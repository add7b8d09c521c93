import type { Metadata } from "next";
import Link from "next/link";
import { control } from "@/components/admin/fields";
import { requireAdmin } from "@/components/admin/require-admin";
import { auditColumns } from "@/components/admin/audit-columns";
import { DataTable } from "@/components/ui/data-table";
import { Button, buttonClass } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page";
import { queryAudit } from "@/lib/domain/admin-audit";
import { auditVocabulary, targetLabels } from "@/lib/domain/admin-audit-labels";
import { DomainError } from "@/lib/domain/errors";
import { fieldAttrs } from "@/lib/contract/field-attrs";
import { auditQuery } from "@/lib/contract/admin-inputs";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

const FIELDS = [
  { name: "actor", label: "Actor", hint: "An e-mail (suggested as you type), or type:id such as admin:cli:operator" },
  { name: "action", label: "Action", hint: "A recorded action (suggested), or key. for every key event" },
  { name: "target", label: "Target", hint: "e.g. key:<id>, endpoint:GET /api/v1/options-flow, or an account id" },
  { name: "from", label: "From", hint: "UTC, e.g. 2026-01-31 or 2026-01-31T12:00Z" },
  { name: "to", label: "To", hint: "UTC, inclusive" },
] as const;

/** Which suggestion list each filter field offers (the known actions and person actors). */
const LISTS: Partial<Record<(typeof FIELDS)[number]["name"], "actions" | "actors">> = {
  actor: "actors",
  action: "actions",
};

type Problem = { message: string; field?: string } | null;

/** The filter fields (with the known actions and actors to pick from), each with its hint and its error. */
function FilterForm({
  shown,
  problem,
  vocabulary,
}: {
  shown: Record<string, string | undefined>;
  problem: Problem;
  vocabulary: Awaited<ReturnType<typeof auditVocabulary>>;
}) {
  return (
    <form
      method="get"
      noValidate
      className="space-y-3 rounded-lg border border-line bg-surface p-4"
      aria-label="Filter the audit log"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {FIELDS.map((f) => {
          const error = problem?.field === f.name ? problem.message : undefined;
          return (
            <div key={f.name} className="min-w-0 space-y-1">
              <label htmlFor={`f-${f.name}`} className="block text-sm font-medium">
                {f.label}
              </label>
              <input
                id={`f-${f.name}`}
                name={f.name}
                defaultValue={shown[f.name] ?? ""}
                maxLength={fieldAttrs(auditQuery.shape[f.name]).maxLength}
                list={LISTS[f.name] ? `f-${LISTS[f.name]}` : undefined}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={`f-${f.name}-hint${error ? ` f-${f.name}-error` : ""}`}
                className={control}
              />
              <p id={`f-${f.name}-hint`} className="text-xs text-muted">
                {f.hint}
              </p>
              {error ? (
                <p id={`f-${f.name}-error`} role="alert" className="text-sm text-bad">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {(["actions", "actors"] as const).map((list) => (
        <datalist key={list} id={`f-${list}`}>
          {vocabulary[list].map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary">
          Filter
        </Button>
        <Link href="/admin/audit" className={buttonClass("ghost")}>
          Clear
        </Link>
      </div>
    </form>
  );
}

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
  const issue = parsed.error?.issues[0];
  let problem: Problem = issue ? { message: issue.message, field: String(issue.path[0]) } : null;
  const db = await portalDb();
  const vocabulary = await auditVocabulary(db);
  if (!problem) {
    try {
      page = await queryAudit(db, filter);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      problem = { message: err.message, field: err.detail.field };
    }
  }
  const labels = page
    ? await targetLabels(
        db,
        page.rows.map((r) => r.target),
      )
    : new Map<string, string>();
  const shown = (parsed.success ? parsed.data : raw) as Record<string, string | undefined>;
  const { cursor: _cursor, ...filters } = filter;
  const qs = (extra: Record<string, string>) => new URLSearchParams({ ...filters, ...extra }).toString();
  return (
    <div className="space-y-8">
      <PageHeader
        title="Audit log"
        description="Every admin action, key lifecycle event, sign-in failure and plan change, newest first. People, accounts and keys are shown by e-mail or name (hover for the id). The log is append-only."
        actions={
          <a href={`/api/admin/audit/export?${qs({})}`} className={buttonClass("secondary")} download>
            Export CSV
          </a>
        }
      />
      <FilterForm shown={shown} problem={problem} vocabulary={vocabulary} />
      {/* A field's problem is said once, under the field (announced there); only one no field owns is said here. */}
      {problem && !FIELDS.some((f) => f.name === problem.field) ? (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-sm text-bad">
          {problem.message}
        </p>
      ) : null}
      {page && page.rows.length === 0 ? (
        <EmptyState title="No audit entries match.">Widen the time range or clear a filter.</EmptyState>
      ) : null}
      {page && page.rows.length > 0 ? (
        <DataTable caption="Audit entries" columns={auditColumns(labels)} rows={page.rows} rowKey={(r) => r.id} wrap />
      ) : null}
      <nav aria-label="Audit pages" className="flex gap-4 text-sm">
        {filter.cursor ? <Link href={`/admin/audit?${qs({})}`}>Newest entries</Link> : null}
        {page?.nextCursor ? <Link href={`/admin/audit?${qs({ cursor: page.nextCursor })}`}>Older entries</Link> : null}
      </nav>
    </div>
  );
}
