"use client";

import { useState } from "react";
import type { PlaygroundResponse } from "@/lib/portal/playground-call";
import { ScrollRegion } from "@/components/scroll-region";

type Body = Record<string, unknown> & { meta?: Record<string, unknown> };

/** Demo/live and the data label, wherever the family puts them (A: meta; B: isMockData / dataLabel). */
export function dataBadges(body: unknown): { data: "demo" | "live" | null; label: string | null } {
  if (!body || typeof body !== "object") return { data: null, label: null };
  const b = body as Body;
  const mock = b.meta ? b.meta.is_mock : b.isMockData;
  const label = (b.meta ? b.meta.data_freshness : b.dataLabel) as string | undefined;
  return { data: typeof mock === "boolean" ? (mock ? "demo" : "live") : null, label: label ?? null };
}

const badge = "inline-block rounded px-2 py-0.5 text-sm font-semibold";

export function ResponseView({ result, curl }: { result: PlaygroundResponse; curl: string }) {
  const [copied, setCopied] = useState<string>("");
  const { data, label } = dataBadges(result.body);
  const ok = result.status >= 200 && result.status < 300;
  const disclaimer =
    typeof result.body === "object" && result.body && "disclaimer" in result.body
      ? String((result.body as Body).disclaimer)
      : null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(curl);
      setCopied("Copied the curl command.");
    } catch {
      setCopied("Copying is blocked here: select the command below and copy it.");
    }
  };
  return (
    <section
      aria-labelledby="pg-response"
      className="space-y-4 rounded-lg border border-line p-4"
      data-testid="playground-response"
    >
      <h2 id="pg-response" className="text-xl font-semibold">
        Response
      </h2>
      <p className="flex flex-wrap items-center gap-2">
        <span className={`${badge} ${ok ? "bg-ok-soft text-ok" : "bg-bad-soft text-bad"}`} data-testid="pg-status">
          HTTP {result.status}
        </span>
        {data && (
          <span className={`${badge} ${data === "demo" ? "bg-warn-soft text-warn" : "bg-info-soft text-info"}`}>
            {data === "demo" ? "Demo data" : "Live data"}
          </span>
        )}
        {label && <span className={`${badge} bg-subtle text-fg`}>Data label: {label}</span>}
        <span className="text-sm text-muted">
          {result.durationMs} ms · <code>{result.path}</code>
        </span>
      </p>
      {disclaimer && (
        <p className="rounded border border-warn/40 bg-warn-soft p-2 text-sm text-warn">
          <strong>Disclaimer in the response:</strong> {disclaimer}
        </p>
      )}
      <ScrollRegion label="Response headers">
        <table className="text-left text-sm">
          <caption className="text-left font-medium">Headers</caption>
          <tbody>
            {Object.entries(result.headers).map(([h, v]) => (
              <tr key={h} className="border-t border-line">
                <th scope="row" className="whitespace-nowrap py-1 pr-4 font-mono font-normal">
                  {h}
                </th>
                <td className="py-1 font-mono break-all">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <div className="space-y-1">
        <h3 className="font-medium">Body</h3>
        <pre
          tabIndex={0}
          aria-label="Response body"
          className="max-h-[32rem] overflow-auto rounded-md bg-code-bg p-4 text-xs text-code-fg"
        >
          {typeof result.body === "string" ? result.body : JSON.stringify(result.body, null, 2)}
        </pre>
      </div>
      <div className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <button type="button" onClick={copy} className="rounded border border-line-strong px-3 py-1.5">
            Copy as curl
          </button>
          <span role="status" className="text-sm text-muted">
            {copied}
          </span>
        </div>
        <pre aria-label="curl command" tabIndex={0} className="overflow-x-auto rounded-md bg-subtle p-3 text-xs">
          {curl}
        </pre>
        <p className="text-xs text-muted">
          The command reads your key from <code>$API_KEY</code>: the portal never shows the playground key.
        </p>
      </div>
    </section>
  );
}
