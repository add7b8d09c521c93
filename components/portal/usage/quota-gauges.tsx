import { useId } from "react";
import type { EnvQuota, KeyCalls, QuotaGauge, UsageSummary } from "@/lib/shared/usage-types";
import { EmptyState } from "@/components/ui/empty-state";
import { type Column, DataTable } from "@/components/ui/data-table";
import { KeyName } from "./key-cell";

const fmt = (n: number) => n.toLocaleString("en-US");
const pct = (used: number, of: number) => (of === 0 ? 0 : Math.min(100, Math.round((used / of) * 1000) / 10));
const ENV_LABEL = { test: "Test keys", live: "Live keys" } as const;

function Gauge({ label, gauge }: { label: string; gauge: QuotaGauge }) {
  const id = useId();
  const period = gauge.window === "month" ? "this month" : "today";
  const resets = gauge.window === "month" ? `resets ${gauge.windowEnd.slice(0, 10)} 00:00 UTC` : "resets at 00:00 UTC";
  return (
    <div className="min-w-0 space-y-1.5">
      <p id={id} className="text-sm">
        <span className="font-medium">{label}:</span> <span className="tabular-nums">{fmt(gauge.used)}</span> of{" "}
        <span className="tabular-nums">{fmt(gauge.limit)}</span> calls {period} · {pct(gauge.used, gauge.limit)} %
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
      <p className="text-xs text-muted">{resets}</p>
    </div>
  );
}

function EnvCard({ q, keys }: { q: EnvQuota; keys: number }) {
  return (
    <div className="space-y-3 rounded-lg border border-line bg-surface p-4" data-testid={`quota-${q.env}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-base font-semibold">{ENV_LABEL[q.env]}</h3>
        <span className="text-xs text-muted">
          {q.plan.charAt(0).toUpperCase() + q.plan.slice(1)} plan · shared by {keys} {keys === 1 ? "key" : "keys"}
        </span>
      </div>
      <Gauge label="Family A quota" gauge={q.familyA} />
      <Gauge label="Family B quota" gauge={q.familyB} />
    </div>
  );
}

const quotaCell = (id: string, header: string, width: string, label: string, value: (k: KeyCalls) => number) =>
  ({
    id,
    header,
    width,
    label,
    align: "right",
    className: "tabular-nums",
    cell: (k) => fmt(value(k)),
  }) satisfies Column<KeyCalls>;

const KEY_CALLS: Column<KeyCalls>[] = [
  {
    id: "key",
    header: "Key",
    rowHeader: true,
    cell: (k) => <KeyName name={k.name} prefix={k.prefix} env={k.env} revoked={k.status === "revoked"} />,
  },
  quotaCell("today", "Calls today", "w-28", "Calls today", (k) => k.today),
  quotaCell("month", "Calls this month", "w-32", "Calls this month", (k) => k.month),
  quotaCell("quota-a", "Family A quota used", "w-36", "Family A quota used (month)", (k) => k.quotaA),
  quotaCell("quota-b", "Family B quota used", "w-36", "Family B quota used (today)", (k) => k.quotaB),
];

function KeyCallsTable({ rows }: { rows: KeyCalls[] }) {
  return (
    <DataTable
      ariaLabel="Calls by key"
      columns={KEY_CALLS}
      rows={rows}
      rowKey={(k) => k.keyId}
      rowData={(k) => ({ "data-testid": `key-calls-${k.keyId}` })}
    />
  );
}

/**
 * The account's quota per environment (shared by all its keys of that environment, as the gateway counts it), then a
 * compact table of each key's calls and its share of that quota.
 */
export function QuotaTable({ summary }: { summary: UsageSummary }) {
  return (
    <section aria-labelledby="quota-heading" className="space-y-3">
      <h2 id="quota-heading" className="text-lg font-semibold">
        Quota
      </h2>
      {summary.quotas.length === 0 ? (
        <EmptyState title="No keys yet" action={<a href="/dashboard/keys">Create a test key</a>}>
          Your quota shows here once the account has a key.
        </EmptyState>
      ) : (
        <>
          <p className="max-w-prose text-sm text-muted">
            Quota is counted per account and environment: all your test keys share one, all your live keys another, so a
            new key adds no quota. Family A counts per UTC calendar month, family B per UTC day, 2xx answers only. The
            per-minute burst is counted per key.
          </p>
          <div className="grid gap-3 lg:grid-cols-2">
            {summary.quotas.map((q) => (
              <EnvCard
                key={q.env}
                q={q}
                keys={summary.keys.filter((k) => k.env === q.env && k.status !== "revoked").length}
              />
            ))}
          </div>
          <h3 className="pt-2 text-base font-semibold">Calls by key</h3>
          <KeyCallsTable rows={summary.keyCalls} />
        </>
      )}
    </section>
  );
}
