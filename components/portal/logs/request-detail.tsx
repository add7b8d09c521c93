"use client";

import { useState } from "react";
import type { RequestLogEntry, UsageKey } from "@/lib/shared/usage-types";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { formatBytes } from "@/lib/shared/format-bytes";
import { ResponseBody } from "./response-body";

/** A curl command for the logged call, with the key as $API_KEY (the log never holds one). */
function curl(origin: string, e: RequestLogEntry): string {
  const method = e.method === "GET" ? "" : ` -X ${e.method}`;
  return `curl${method} -H "Authorization: Bearer $API_KEY" \\\n  "${origin}${e.path}"`;
}

/** The path and the query of a logged path, the query's pairs one per line. */
function split(path: string): { pathname: string; query: string[] } {
  const q = path.indexOf("?");
  if (q === -1) return { pathname: path, query: [] };
  return {
    pathname: path.slice(0, q),
    query: path
      .slice(q + 1)
      .split("&")
      .filter(Boolean),
  };
}

/** One logged request, opened from the log: every field the log keeps, and copy-as-curl. */
export function RequestDetail({
  entry,
  keys,
  onClose,
}: {
  entry: RequestLogEntry | null;
  keys: UsageKey[];
  onClose: () => void;
}) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const key = entry ? keys.find((k) => k.id === entry.keyId) : undefined;
  const command = entry ? curl(origin, entry) : "";

  return (
    <Drawer
      open={entry !== null}
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      title={entry ? `${entry.method} ${entry.path}` : "Request"}
    >
      {entry ? (
        <div className="space-y-5 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={statusTone(entry.status)}>{entry.status}</Badge>
            {entry.errorCode ? <code>{entry.errorCode}</code> : null}
            <span className="text-muted">{entry.latencyMs} ms</span>
          </div>
          <RequestFacts entry={entry} keyName={key?.name} />
          <p className="text-xs text-muted">
            {entry.pathKept
              ? "The path and query as received; values of parameters that carry credentials (api_key, token, …) and anything shaped like a key are replaced by REDACTED."
              : "This call was logged before paths were kept: only its route is known, so fill in the placeholders to repeat it."}
          </p>
          <p className="text-xs text-muted">
            Response size is the body's length in bytes as sent. Rate limit after is what the answer's RateLimit headers
            said: the key's per-minute burst, and the quota shared by the account's keys of this environment (monthly or
            daily, by the route's family).
          </p>
          <ResponseBody entry={entry} />
          <CopyAsCurl command={command} />
        </div>
      ) : null}
    </Drawer>
  );
}

/** Every field the log keeps of a call. */
function RequestFacts({ entry, keyName }: { entry: RequestLogEntry; keyName?: string }) {
  const parts = split(entry.path);
  return (
    <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2">
      <dt className="text-muted">Request id</dt>
      <dd className="font-mono text-xs break-all">{entry.requestId}</dd>
      <dt className="text-muted">Time (UTC)</dt>
      <dd className="tabular-nums">{entry.time.replace("T", " ").replace("Z", "")}</dd>
      <dt className="text-muted">Method</dt>
      <dd>{entry.method}</dd>
      <dt className="text-muted">Path</dt>
      <dd className="font-mono text-xs break-all" data-testid="detail-path">
        {parts.pathname}
      </dd>
      <dt className="text-muted">Query</dt>
      <dd className="font-mono text-xs break-all" data-testid="detail-query">
        {parts.query.length === 0 ? (
          <span className="font-sans text-muted">none</span>
        ) : (
          parts.query.map((pair) => (
            <span key={pair} className="block">
              {pair}
            </span>
          ))
        )}
      </dd>
      <dt className="text-muted">Route</dt>
      <dd className="font-mono text-xs break-all">{entry.route}</dd>
      <dt className="text-muted">Status</dt>
      <dd>
        {entry.status}
        {entry.errorCode ? ` · ${entry.errorCode}` : ""}
      </dd>
      <dt className="text-muted">Latency</dt>
      <dd>{entry.latencyMs} ms</dd>
      <dt className="text-muted">Response size</dt>
      <dd className="tabular-nums" data-testid="detail-size">
        {entry.responseBytes === null ? (
          <span className="text-muted">not recorded</span>
        ) : (
          formatBytes(entry.responseBytes)
        )}
      </dd>
      <dt className="text-muted">Rate limit after</dt>
      <dd className="tabular-nums" data-testid="detail-rate-limit">
        {entry.rateLimit === null ? (
          <span className="text-muted">
            {entry.responseBytes === null ? "not recorded" : "none: answered before the limits"}
          </span>
        ) : (
          <>
            <span className="block">
              Burst: {entry.rateLimit.burstRemaining} of {entry.rateLimit.burstLimit} left this minute
            </span>
            <span className="block">
              Quota: {entry.rateLimit.quotaRemaining.toLocaleString("en-US")} of{" "}
              {entry.rateLimit.quotaLimit.toLocaleString("en-US")} left
            </span>
          </>
        )}
      </dd>
      <dt className="text-muted">Key</dt>
      <dd className="min-w-0 break-words">
        {keyName ? `${keyName} ` : ""}
        <code>{entry.keyPrefix}…</code>
      </dd>
    </dl>
  );
}

/** The call as a curl command, with a copy button. */
function CopyAsCurl({ command }: { command: string }) {
  const [copied, setCopied] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is blocked here: select the command and copy it.");
    }
  };
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-3">
        <Button size="sm" onClick={copy}>
          Copy as curl
        </Button>
        <span role="status" className="text-xs text-muted">
          {copied}
        </span>
      </div>
      <pre
        role="figure"
        aria-label="curl command"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard user can select the command
        tabIndex={0}
        className="rounded-md bg-code-bg p-3 text-xs break-all whitespace-pre-wrap text-code-fg"
      >
        {command}
      </pre>
    </div>
  );
}
