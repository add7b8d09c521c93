"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { RequestLogEntry, RequestLogPage, UsageEndpoint, UsageKey } from "@/lib/shared/usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { cellLabel, frame, table, tbody, td, th, thead, tr } from "@/components/ui/table";
import { Truncate } from "@/components/ui/truncate";
import { QueryState } from "../query-state";
import { RequestDetail } from "./request-detail";
import { EMPTY, type Filters, RequestLogFilters } from "./request-log-filters";

/** datetime-local values are the browser's local time; the API takes ISO instants. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : "");

function logUrl(f: Filters, cursor?: string) {
  const p = new URLSearchParams({ limit: "25" });
  if (f.key) p.set("key", f.key);
  if (f.route) p.set("route", f.route);
  if (f.status) p.set("status", f.status);
  if (f.errorCode) p.set("error_code", f.errorCode);
  if (f.symbol.trim()) p.set("symbol", f.symbol.trim());
  if (f.from) p.set("from", toIso(f.from));
  if (f.to) p.set("to", toIso(f.to));
  if (cursor) p.set("cursor", cursor);
  return `/api/portal/usage/requests?${p}`;
}

/** The calls of the account's keys, newest first, one line each; a row opens its details in a drawer. */
export function RequestLog({
  keys,
  endpoints,
  statusClasses,
  errorCodes,
}: {
  keys: UsageKey[];
  endpoints: UsageEndpoint[];
  statusClasses: readonly string[];
  errorCodes: readonly string[];
}) {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const log = useInfiniteQuery({
    queryKey: ["portal", "usage", "requests", applied],
    queryFn: ({ pageParam }) => portalFetch<RequestLogPage>(logUrl(applied, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 15_000,
  });
  const filtered = Object.values(applied).some(Boolean);
  const keyName = (id: string) => keys.find((k) => k.id === id)?.name;
  return (
    <section aria-labelledby="log-heading" className="space-y-3">
      <h2 id="log-heading" className="text-lg font-semibold">
        Request log
      </h2>
      <RequestLogFilters
        draft={draft}
        onChange={setDraft}
        onApply={() => setApplied(draft)}
        onClear={() => {
          setDraft(EMPTY);
          setApplied(EMPTY);
        }}
        keys={keys}
        endpoints={endpoints}
        statusClasses={statusClasses}
        errorCodes={errorCodes}
      />
      <QueryState query={log} what="request log">
        {(data) => {
          const entries = data.pages.flatMap((p) => p.entries);
          if (entries.length === 0)
            return filtered ? (
              <EmptyState title="No requests match these filters.">Clear a filter or widen the time range.</EmptyState>
            ) : (
              <EmptyState
                title="No requests in the last 7 days"
                action={<a href="/dashboard/playground">Send a request from the playground</a>}
              >
                Every call a key makes shows up here within seconds, with its status, error code and latency.
              </EmptyState>
            );
          return (
            <div className="space-y-3">
              <div className={frame}>
                <table className={table} aria-label="Request log">
                  <thead className={thead}>
                    <tr>
                      <th scope="col" className={`${th} w-40`}>
                        Time (UTC)
                      </th>
                      <th scope="col" className={th}>
                        Request
                      </th>
                      <th scope="col" className={`${th} w-48`}>
                        Status
                      </th>
                      <th scope="col" className={`${th} w-20 text-right`}>
                        Latency
                      </th>
                      <th scope="col" className={`${th} w-36`}>
                        Key
                      </th>
                      <th scope="col" className={`${th} w-20`}>
                        <span className="sr-only">Details</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody className={tbody}>
                    {entries.map((e) => (
                      <tr key={e.id} className={tr}>
                        <td className={`${td} text-xs text-muted tabular-nums`}>
                          {e.time.slice(0, 19).replace("T", " ")}
                        </td>
                        <td className={`${td} min-w-0`}>
                          <span className="flex min-w-0 items-baseline gap-2">
                            <span className="w-10 shrink-0 font-mono text-xs font-semibold text-muted">{e.method}</span>
                            <Truncate text={e.path} min={30} className="font-mono text-xs" />
                          </span>
                        </td>
                        <td className={td}>
                          <span className="flex min-w-0 items-center gap-2">
                            <Badge tone={statusTone(e.status)}>{e.status}</Badge>
                            {e.errorCode ? (
                              <Truncate text={e.errorCode} min={26} className="font-mono text-xs" />
                            ) : null}
                          </span>
                        </td>
                        <td className={`${td} text-xs tabular-nums md:text-right`}>
                          <span className={cellLabel}>Latency</span>
                          {e.latencyMs} ms
                        </td>
                        <td className={`${td} text-xs`}>
                          <span className={cellLabel}>Key</span>
                          <Truncate text={keyName(e.keyId) ?? `${e.keyPrefix}…`} min={20} />
                        </td>
                        <td className={`${td} md:text-right`}>
                          <Button
                            size="sm"
                            variant="ghost"
                            onClick={() => setOpen(e)}
                            aria-label={`Details of ${e.requestId}`}
                          >
                            Details
                          </Button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {log.hasNextPage ? (
                <Button onClick={() => log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                  {log.isFetchingNextPage ? "Loading…" : "Load older requests"}
                </Button>
              ) : (
                <p className="text-xs text-muted">End of the log for this range.</p>
              )}
            </div>
          );
        }}
      </QueryState>
      <RequestDetail entry={open} keys={keys} onClose={() => setOpen(null)} />
    </section>
  );
}
