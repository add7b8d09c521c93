"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { STATUS_CLASSES, type RequestLogPage, type UsageEndpoint, type UsageKey } from "@/lib/shared/usage-types";
import { portalFetch } from "@/components/portal/portal-fetch";
import { QueryState } from "../query-state";
import { ScrollRegion } from "@/components/scroll-region";

interface Filters {
  key: string;
  route: string;
  status: string;
  from: string;
  to: string;
}
const EMPTY: Filters = { key: "", route: "", status: "", from: "", to: "" };
const input = "w-full rounded border border-slate-400 px-2 py-1";

/** datetime-local values are the browser's local time; the API takes ISO instants. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : "");

function logUrl(f: Filters, cursor?: string) {
  const p = new URLSearchParams({ limit: "25" });
  if (f.key) p.set("key", f.key);
  if (f.route) p.set("route", f.route);
  if (f.status) p.set("status", f.status);
  if (f.from) p.set("from", toIso(f.from));
  if (f.to) p.set("to", toIso(f.to));
  if (cursor) p.set("cursor", cursor);
  return `/api/portal/usage/requests?${p}`;
}

export function RequestLog({ keys, endpoints }: { keys: UsageKey[]; endpoints: UsageEndpoint[] }) {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const log = useInfiniteQuery({
    queryKey: ["portal", "usage", "requests", applied],
    queryFn: ({ pageParam }) => portalFetch<RequestLogPage>(logUrl(applied, pageParam)),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 15_000,
  });
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setApplied(draft);
  };
  return (
    <section aria-labelledby="log-heading" className="space-y-4">
      <h2 id="log-heading" className="text-2xl font-semibold">
        Request log
      </h2>
      <form
        onSubmit={submit}
        className="grid gap-3 rounded-lg border border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-label="Request log filters"
      >
        <div>
          <label htmlFor="log-key" className="block text-sm font-medium">
            Key
          </label>
          <select id="log-key" value={draft.key} onChange={set("key")} className={input}>
            <option value="">All keys</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="log-route" className="block text-sm font-medium">
            Route
          </label>
          <select id="log-route" value={draft.route} onChange={set("route")} className={input}>
            <option value="">All routes</option>
            {endpoints.map((e) => (
              <option key={e.id} value={e.id}>
                {e.id}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="log-status" className="block text-sm font-medium">
            Status class
          </label>
          <select id="log-status" value={draft.status} onChange={set("status")} className={input}>
            <option value="">All statuses</option>
            {STATUS_CLASSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="log-from" className="block text-sm font-medium">
            From (your local time)
          </label>
          <input id="log-from" type="datetime-local" value={draft.from} onChange={set("from")} className={input} />
        </div>
        <div>
          <label htmlFor="log-to" className="block text-sm font-medium">
            To (your local time)
          </label>
          <input id="log-to" type="datetime-local" value={draft.to} onChange={set("to")} className={input} />
        </div>
        <div className="flex items-end gap-2">
          <button type="submit" className="rounded bg-blue-800 px-3 py-1.5 font-medium text-white">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(EMPTY);
              setApplied(EMPTY);
            }}
            className="rounded border border-slate-400 px-3 py-1.5"
          >
            Clear
          </button>
        </div>
        <p className="text-sm text-slate-700 sm:col-span-2 lg:col-span-3">
          Without a range: the last 7 days. A range spans at most 31 days.
        </p>
      </form>
      <QueryState query={log} what="request log">
        {(data) => {
          const entries = data.pages.flatMap((p) => p.entries);
          if (entries.length === 0) return <p className="text-slate-700">No requests match.</p>;
          return (
            <div className="space-y-3">
              <ScrollRegion label="Request log entries">
                <table className="w-full border-collapse text-left text-sm" aria-label="Request log">
                  <thead className="bg-slate-100">
                    <tr>
                      {["Time (UTC)", "Key", "Method", "Path", "Status", "Latency", "Request id"].map((h) => (
                        <th key={h} scope="col" className="whitespace-nowrap px-2 py-1">
                          {h}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((e) => (
                      <tr key={e.id} className="border-t border-slate-200">
                        <td className="whitespace-nowrap px-2 py-1 tabular-nums">
                          {e.time.slice(0, 19).replace("T", " ")}
                        </td>
                        <td className="whitespace-nowrap px-2 py-1">
                          <code>{e.keyPrefix}…</code>
                        </td>
                        <td className="px-2 py-1">{e.method}</td>
                        <td className="px-2 py-1">
                          <code className="break-all">{e.path}</code>
                        </td>
                        <td className="whitespace-nowrap px-2 py-1">
                          {e.status}
                          {e.errorCode ? ` ${e.errorCode}` : ""}
                        </td>
                        <td className="whitespace-nowrap px-2 py-1 text-right tabular-nums">{e.latencyMs} ms</td>
                        <td className="px-2 py-1">
                          <code className="break-all text-xs">{e.requestId}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
              {log.hasNextPage ? (
                <button
                  type="button"
                  onClick={() => log.fetchNextPage()}
                  disabled={log.isFetchingNextPage}
                  className="rounded border border-slate-400 px-3 py-1.5"
                >
                  {log.isFetchingNextPage ? "Loading…" : "Load older requests"}
                </button>
              ) : (
                <p className="text-sm text-slate-700">End of the log for this range.</p>
              )}
            </div>
          );
        }}
      </QueryState>
    </section>
  );
}
