import type { QuotaGauge, UsageSummary } from "@/lib/shared/usage-types";

const fmt = (n: number) => n.toLocaleString("en-US");
const pct = (used: number, of: number) => (of === 0 ? 0 : Math.min(100, Math.round((used / of) * 1000) / 10));

function Gauge({ label, gauge }: { label: string; gauge: QuotaGauge }) {
  const id = `${label}-${gauge.windowStart}`.replace(/[^a-z0-9]+/gi, "-");
  const period = gauge.window === "month" ? `this month (UTC, resets ${gauge.windowEnd.slice(0, 10)})` : "today (UTC)";
  return (
    <div className="space-y-1">
      <p id={id} className="text-sm">
        <span className="font-medium">{label}:</span> {fmt(gauge.used)} of {fmt(gauge.limit)} calls {period} ·{" "}
        {pct(gauge.used, gauge.limit)} %
      </p>
      <meter
        aria-labelledby={id}
        min={0}
        max={gauge.limit}
        value={gauge.used}
        high={gauge.limit * 0.8}
        optimum={0}
        className="h-3 w-full"
      />
    </div>
  );
}

/** Quota used per key in the current windows, and the 429s: the gateway's own counters. */
export function QuotaGauges({ summary }: { summary: UsageSummary }) {
  const r = summary.rateLimited;
  return (
    <section aria-labelledby="quota-heading" className="space-y-4">
      <h2 id="quota-heading" className="text-2xl font-semibold">
        Quota and rate limits
      </h2>
      {summary.quotas.length === 0 ? (
        <p className="text-slate-700">No active keys yet.</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {summary.quotas.map((q) => (
            <li
              key={q.keyId}
              className="space-y-3 rounded-lg border border-slate-200 p-4"
              data-testid={`quota-${q.keyId}`}
            >
              <p className="font-medium">
                {q.name} <code className="text-sm">{q.prefix}…</code>{" "}
                <span className="text-sm font-normal text-slate-700">
                  ({q.env}, {q.plan} plan)
                </span>
              </p>
              <Gauge label="Family A quota" gauge={q.familyA} />
              <Gauge label="Family B quota" gauge={q.familyB} />
            </li>
          ))}
        </ul>
      )}
      <div className="rounded-lg border border-slate-200 p-4" data-testid="rate-limited">
        <p className="text-sm">
          <span className="font-medium">429 rate_limit_exceeded:</span> {fmt(r.lastHour)} of {fmt(r.lastHourCalls)}{" "}
          calls in the last hour · {fmt(r.today)} of {fmt(r.todayCalls)} calls today (UTC)
        </p>
        <meter
          aria-label="Share of calls answered 429 in the last hour"
          min={0}
          max={Math.max(1, r.lastHourCalls)}
          value={r.lastHour}
          high={Math.max(1, r.lastHourCalls) * 0.05}
          optimum={0}
          className="mt-1 h-3 w-full"
        />
      </div>
    </section>
  );
}
