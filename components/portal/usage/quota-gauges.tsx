import { useId } from "react";
import type { QuotaGauge, UsageSummary } from "@/lib/shared/usage-types";
import { EmptyState } from "@/components/ui/empty-state";
import { frame, table, tbody, td, th, thead, tr } from "@/components/ui/table";
import { Truncate } from "@/components/ui/truncate";

const fmt = (n: number) => n.toLocaleString("en-US");
const pct = (used: number, of: number) => (of === 0 ? 0 : Math.min(100, Math.round((used / of) * 1000) / 10));

function Gauge({ label, gauge }: { label: string; gauge: QuotaGauge }) {
  const id = useId();
  const period = gauge.window === "month" ? "this month" : "today";
  const resets = gauge.window === "month" ? `UTC month, resets ${gauge.windowEnd.slice(0, 10)}` : "UTC day";
  return (
    <div className="min-w-0 space-y-1">
      <p id={id} className="text-xs" title={resets}>
        <span className="text-muted md:sr-only">{label}: </span>
        <span className="font-medium tabular-nums">{fmt(gauge.used)}</span> of {fmt(gauge.limit)} calls {period} ·{" "}
        {pct(gauge.used, gauge.limit)} %
      </p>
      <meter
        aria-labelledby={id}
        min={0}
        max={gauge.limit}
        value={gauge.used}
        high={gauge.limit * 0.8}
        optimum={0}
        className="block h-2 w-full"
      />
    </div>
  );
}

/** Quota used per key in the current windows, as one compact table (keys that never called are listed last). */
export function QuotaTable({ summary }: { summary: UsageSummary }) {
  const quotas = [...summary.quotas].sort(
    (a, b) => b.familyA.used + b.familyB.used - (a.familyA.used + a.familyB.used),
  );
  return (
    <section aria-labelledby="quota-heading" className="space-y-3">
      <h2 id="quota-heading" className="text-lg font-semibold">
        Quota by key
      </h2>
      {quotas.length === 0 ? (
        <EmptyState title="No active keys yet" action={<a href="/dashboard/keys">Create a key</a>}>
          Quotas are counted per key.
        </EmptyState>
      ) : (
        <div className={frame}>
          <table className={table}>
            <caption className="sr-only">Quota used per key in the current UTC windows</caption>
            <thead className={thead}>
              <tr>
                <th scope="col" className={th}>
                  Key
                </th>
                <th scope="col" className={`${th} w-[30%]`}>
                  Family A quota (month)
                </th>
                <th scope="col" className={`${th} w-[30%]`}>
                  Family B quota (day)
                </th>
              </tr>
            </thead>
            <tbody className={tbody}>
              {quotas.map((q) => (
                <tr key={q.keyId} className={tr} data-testid={`quota-${q.keyId}`}>
                  <th scope="row" className={`${td} min-w-0 font-medium`}>
                    <Truncate text={q.name} />
                    <span className="block text-xs font-normal text-muted">
                      <code className="bg-transparent p-0">{q.prefix}…</code> · {q.env} · {q.plan}
                    </span>
                  </th>
                  <td className={td}>
                    <Gauge label="Family A quota" gauge={q.familyA} />
                  </td>
                  <td className={td}>
                    <Gauge label="Family B quota" gauge={q.familyB} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
