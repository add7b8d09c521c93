"use client";

import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { Badge, statusTone } from "@/components/ui/badge";
import { HISTORY_OPERATIONS, historySeries } from "@/lib/portal/history-series";
import { HistoryChart } from "./history-chart";

type Body = Record<string, unknown> & { meta?: Record<string, unknown> };

/** Demo/live and the data label, wherever the family puts them (A: meta; B: isMockData / dataLabel). */
export function dataBadges(body: unknown): { data: "demo" | "live" | null; label: string | null } {
  if (!body || typeof body !== "object") return { data: null, label: null };
  const b = body as Body;
  const mock = b.meta ? b.meta.is_mock : b.isMockData;
  const label = (b.meta ? b.meta.data_freshness : b.dataLabel) as string | undefined;
  return { data: typeof mock === "boolean" ? (mock ? "demo" : "live") : null, label: label ?? null };
}

/** The error code and message of a refusal, in either family's error shape. */
function errorOf(body: unknown): { code: string; message: string } | null {
  if (!body || typeof body !== "object") return null;
  const e = (body as { error?: unknown }).error;
  if (!e || typeof e !== "object") return null;
  const { code, message } = e as { code?: unknown; message?: unknown };
  return typeof code === "string" ? { code, message: typeof message === "string" ? message : "" } : null;
}

/** What a rate-limit header says, in words (reset as the browser's local time). */
function explain(header: string, value: string): string | null {
  if (header === "x-ratelimit-remaining") return `${value} calls left in the current window`;
  if (header === "x-ratelimit-limit") return `${value} calls allowed per window`;
  if (header === "retry-after") return `retry in ${value} s`;
  if (header === "x-ratelimit-reset") {
    const n = Number(value);
    if (!Number.isFinite(n)) return null;
    const at = new Date(n > 1e9 ? n * 1000 : Date.now() + n * 1000);
    return `resets at ${at.toLocaleTimeString()} your time`;
  }
  if (header === "ratelimit-policy") {
    const parts = [...value.matchAll(/"(\w+)";q=(\d+);w=(\d+)/g)].map((m) => `${m[2]} per ${m[3]} s (${m[1]})`);
    return parts.length ? parts.join(", ") : null;
  }
  if (header === "ratelimit") {
    const r = /r=(\d+)/.exec(value)?.[1];
    const t = /t=(\d+)/.exec(value)?.[1];
    return r ? `${r} left${t ? `, window resets in ${t} s` : ""}` : null;
  }
  return null;
}

export function ResponseView({ result, operation }: { result: PlaygroundResponse; operation?: string }) {
  const { data, label } = dataBadges(result.body);
  const series = operation && HISTORY_OPERATIONS.includes(operation) ? historySeries(result.body) : null;
  const error = errorOf(result.body);
  const disclaimer =
    typeof result.body === "object" && result.body && "disclaimer" in result.body
      ? String((result.body as Body).disclaimer)
      : null;
  return (
    <section
      aria-labelledby="pg-response"
      className="min-w-0 space-y-4 rounded-lg border border-line bg-surface p-4"
      data-testid="playground-response"
    >
      <h2 id="pg-response" className="text-base font-semibold">
        Response
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={statusTone(result.status)} className="text-sm" data-testid="pg-status">
          HTTP {result.status}
        </Badge>
        {data && <Badge tone={data === "demo" ? "warn" : "info"}>{data === "demo" ? "Demo data" : "Live data"}</Badge>}
        {label && <Badge>Data label: {label}</Badge>}
        <span className="min-w-0 text-xs text-muted">
          {result.durationMs} ms · <code className="break-all">{result.path}</code>
        </span>
      </div>
      {error ? (
        <p className="rounded-md border border-bad/40 bg-bad-soft p-3 text-sm text-bad">
          <code className="bg-transparent p-0 font-semibold">{error.code}</code>
          {error.message ? `: ${error.message}` : ""}
        </p>
      ) : null}
      {disclaimer && (
        <p className="rounded-md border border-warn/40 bg-warn-soft p-3 text-sm text-warn">
          <strong>Disclaimer in the response:</strong> {disclaimer}
        </p>
      )}
      {series ? <HistoryChart series={series} /> : null}
      <div className="space-y-1">
        <h3 className="text-sm font-medium">Body</h3>
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard user can scroll a long body
          tabIndex={0}
          role="region"
          aria-label="Response body"
          className="max-h-[32rem] overflow-y-auto rounded-md bg-code-bg p-4 text-xs break-words whitespace-pre-wrap text-code-fg"
        >
          {typeof result.body === "string" ? result.body : JSON.stringify(result.body, null, 2)}
        </pre>
      </div>
      <div className="space-y-1">
        <table className="w-full table-fixed text-left text-xs">
          <caption className="pb-1 text-left text-sm font-medium">Headers</caption>
          <tbody>
            {Object.entries(result.headers).map(([h, v]) => {
              const words = explain(h, v);
              return (
                <tr key={h} className="border-t border-line align-top">
                  <th scope="row" className="w-2/5 py-1.5 pr-3 font-mono font-normal break-all sm:w-56">
                    {h}
                  </th>
                  <td className="py-1.5 font-mono break-all">
                    {v}
                    {words ? <span className="block font-sans text-muted">{words}</span> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
