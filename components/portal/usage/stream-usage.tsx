"use client";

import { useQuery } from "@tanstack/react-query";
import type { StreamKeyLeases, StreamMeteredRow, StreamUsage } from "@/lib/shared/stream-usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Badge, statusTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { type Column, DataTable } from "@/components/ui/data-table";
import { Truncate } from "@/components/ui/truncate";
import { QueryState } from "../query-state";
import { KeyName } from "./key-cell";

const fmt = (n: number) => n.toLocaleString("en-US");
const time = (iso: string) => iso.slice(0, 19).replace("T", " ");
const WHAT = {
  opening: { ok: "Stream opened", refused: "Opening refused" },
  events: { ok: "Events delivered", refused: "Events refused" },
} as const;

const OPEN_STREAMS: Column<StreamKeyLeases>[] = [
  {
    id: "key",
    header: "Key",
    rowHeader: true,
    cell: (k) => <KeyName name={k.name} prefix={k.prefix} env={k.env} />,
  },
  {
    id: "open",
    header: "Open now",
    width: "w-44",
    align: "right",
    className: "tabular-nums",
    cell: (k) => (
      <>
        {fmt(k.open)} of {fmt(k.limit)}
        {k.open >= k.limit ? (
          <Badge tone="warn" className="ml-2">
            At limit
          </Badge>
        ) : null}
      </>
    ),
  },
  {
    id: "oldest",
    header: "Oldest opened (UTC)",
    label: "Oldest opened",
    width: "w-44",
    className: "text-xs text-muted tabular-nums",
    cell: (k) => (k.oldestOpenedAt ? time(k.oldestOpenedAt) : "–"),
  },
];

const METERED: Column<StreamMeteredRow>[] = [
  {
    id: "time",
    header: "Time (UTC)",
    width: "w-40",
    label: false,
    className: "text-xs text-muted tabular-nums",
    cell: (r) => time(r.time),
  },
  {
    id: "what",
    header: "What",
    label: false,
    className: "min-w-0",
    cell: (r) => (
      <>
        <span className="block font-medium">{WHAT[r.kind][r.status === 200 ? "ok" : "refused"]}</span>
        <Truncate text={r.requestId} min={24} className="font-mono text-xs text-muted" />
      </>
    ),
  },
  { id: "calls", header: "Calls", width: "w-24", align: "right", className: "tabular-nums", cell: (r) => fmt(r.units) },
  {
    id: "status",
    header: "Status",
    width: "w-56",
    label: false,
    cell: (r) => (
      <span className="flex min-w-0 items-center gap-2">
        <Badge tone={statusTone(r.status)}>{r.status}</Badge>
        {r.errorCode ? <Truncate text={r.errorCode} min={26} className="font-mono text-xs" /> : null}
      </span>
    ),
  },
  {
    id: "key",
    header: "Key",
    width: "w-36",
    className: "text-xs",
    cell: (r) => <Truncate text={r.keyName || `${r.keyPrefix}…`} min={16} />,
  },
];

/**
 * The live stream (GET /api/v1/stream) on the usage page: each key's streams open now on every server (their leases,
 * against the plan's limit), today's openings and metered events, and the stream's last metered rows.
 */
export function StreamUsagePanel() {
  const usage = useQuery({
    queryKey: ["portal", "usage", "stream"],
    queryFn: () => portalFetch<StreamUsage>("/api/portal/usage/stream"),
    refetchInterval: 5_000,
    staleTime: 2_000,
  });
  return (
    <section aria-labelledby="stream-heading" className="space-y-3" data-testid="stream-usage">
      <h2 id="stream-heading" className="text-lg font-semibold">
        Live stream
      </h2>
      <QueryState query={usage} what="live stream usage">
        {(u) => (
          <>
            <p className="max-w-prose text-sm text-muted">
              Streams open now are counted per key across every server, against the plan&apos;s limit; a stream whose
              server stopped without closing it stops counting within {u.leaseTtlSeconds} s. Opening a stream is one
              call, and each event it delivers is one more call of the day&apos;s family B quota.
            </p>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              {[
                { label: "Streams opened today", value: u.today.openings },
                { label: "Events delivered today", value: u.today.delivered },
                { label: "Events refused today (quota)", value: u.today.refused },
              ].map((c) => (
                <div key={c.label} className="rounded-lg border border-line bg-surface p-4">
                  <dt className="text-xs font-medium text-muted">{c.label}</dt>
                  <dd className="mt-1 text-2xl font-semibold tabular-nums">{fmt(c.value)}</dd>
                </div>
              ))}
            </dl>
            <h3 className="pt-2 text-base font-semibold">Open streams by key</h3>
            {u.keys.length === 0 ? (
              <EmptyState title="No keys yet" action={<a href="/dashboard/keys">Create a test key</a>}>
                A key&apos;s open streams show here once the account has a key.
              </EmptyState>
            ) : (
              <>
                <p className="text-sm" data-testid="stream-open-total">
                  {(() => {
                    const open = u.keys.reduce((n, k) => n + k.open, 0);
                    return open === 0
                      ? "No stream is open now."
                      : `${fmt(open)} ${open === 1 ? "stream" : "streams"} open now.`;
                  })()}
                </p>
                <DataTable
                  ariaLabel="Open streams by key"
                  columns={OPEN_STREAMS}
                  rows={u.keys}
                  rowKey={(k) => k.keyId}
                  rowData={(k) => ({ "data-testid": `stream-key-${k.keyId}` })}
                />
              </>
            )}
            <h3 className="pt-2 text-base font-semibold">Metered stream calls, last 24 hours</h3>
            <DataTable
              ariaLabel="Metered stream calls"
              columns={METERED}
              rows={u.recent}
              rowKey={(r) => r.requestId}
              empty={
                <EmptyState
                  title="No stream calls in the last 24 hours"
                  action={<a href="/dashboard/playground">Open a stream in the playground</a>}
                >
                  Each opening and each round of delivered events shows here with its number of calls.
                </EmptyState>
              }
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
