import { auditDiff } from "@/lib/shared/audit-diff";

/** An audit entry's change as a small table of fields: old value struck through, new value after the arrow. */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const lines = auditDiff(before, after);
  if (lines.length === 0) return <span className="text-muted">No change recorded</span>;
  return (
    <dl className="space-y-0.5">
      {lines.map((l) => (
        <div key={l.field} className="flex min-w-0 flex-wrap gap-x-1.5">
          <dt className="font-medium">{l.field}</dt>
          <dd className="min-w-0 break-all font-mono">
            {l.before !== null ? (
              <del className="text-bad">
                <span className="sr-only">was </span>
                {l.before}
              </del>
            ) : null}
            {l.before !== null && l.after !== null ? <span aria-hidden="true"> → </span> : null}
            {l.after !== null ? (
              <ins className="text-ok no-underline">
                {l.before !== null ? <span className="sr-only">now </span> : null}
                {l.after}
              </ins>
            ) : (
              <span className="text-muted"> (removed)</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
