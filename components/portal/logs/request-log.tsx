"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { RequestLogEntry, RequestLogPage, UsageEndpoint, UsageKey } from "@/lib/shared/usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { QueryState } from "../query-state";
import { LiveTail, LIVE_MS } from "./live-tail";
import { RequestDetail } from "./request-detail";
import { EMPTY, type Filters, RequestLogFilters } from "./request-log-filters";
import { RequestLogTable } from "./request-log-table";

/** datetime-local values are the browser's local time; the API takes ISO instants. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : "");

function logUrl(f: Filters, requestId: string, cursor?: string) {
  const p = new URLSearchParams({ limit: "25" });
  if (f.key) p.set("key", f.key);
  if (f.route) p.set("route", f.route);
  if (f.status) p.set("status", f.status);
  if (f.errorCode) p.set("error_code", f.errorCode);
  if (f.symbol.trim()) p.set("symbol", f.symbol.trim());
  if (requestId) p.set("request_id", requestId);
  if (f.from) p.set("from", toIso(f.from));
  if (f.to) p.set("to", toIso(f.to));
  if (cursor) p.set("cursor", cursor);
  return `/api/portal/usage/requests?${p}`;
}

/**
 * The calls of the account's keys, newest first, one line each, filtered and (live) checked for new calls every few
 * seconds; a row opens its details, with an error's body, in a drawer.
 */
export function RequestLog({
  keys,
  endpoints,
  statusClasses,
  errorCodes,
  requestId,
  live,
  onToggleLive,
}: {
  keys: UsageKey[];
  endpoints: UsageEndpoint[];
  statusClasses: readonly string[];
  errorCodes: readonly string[];
  /** A request id to find ("" for all). */
  requestId: string;
  live: boolean;
  onToggleLive: () => void;
}) {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const log = useInfiniteQuery({
    queryKey: ["portal", "usage", "requests", applied, requestId],
    queryFn: ({ pageParam }) => portalFetch<RequestLogPage>(logUrl(applied, requestId, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: live ? LIVE_MS : false,
  });
  const filtered = requestId !== "" || Object.values(applied).some(Boolean);
  const keyName = (id: string) => keys.find((k) => k.id === id)?.name;
  return (
    <section aria-label="Requests" className="space-y-3">
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
      <LiveTail live={live} onToggle={onToggleLive} checkedAt={log.dataUpdatedAt} />
      <QueryState query={log} what="request log">
        {(data) => {
          const entries = data.pages.flatMap((p) => p.entries);
          if (entries.length === 0) return <NoRequests filtered={filtered} requestId={requestId} />;
          return (
            <div className="space-y-3">
              <RequestLogTable entries={entries} keyName={keyName} onOpen={setOpen} />
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

function NoRequests({ filtered, requestId }: { filtered: boolean; requestId: string }) {
  if (requestId)
    return (
      <EmptyState title={`No request with id ${requestId}.`}>
        Without a time range the search looks back 31 days. Check the id (the X-Request-Id header of the answer) or
        widen the range.
      </EmptyState>
    );
  if (filtered)
    return <EmptyState title="No requests match these filters.">Clear a filter or widen the time range.</EmptyState>;
  return (
    <EmptyState
      title="No requests in the last 7 days"
      action={<a href="/dashboard/playground">Send a request from the playground</a>}
    >
      Every call a key makes shows up here within seconds, with its status, error code, latency and, for an error, the
      body the caller got.
    </EmptyState>
  );
}
