"use client";

import { useState } from "react";
import type { RequestLogEntry, UsageKey } from "@/lib/shared/usage-types";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";

/** A curl command for the logged call; path parameters the log does not keep stay as {placeholders} to fill in. */
function curl(origin: string, e: RequestLogEntry): string {
  const method = e.method === "GET" ? "" : ` -X ${e.method}`;
  return `curl${method} -H "Authorization: Bearer $API_KEY" \\\n  "${origin}${e.path}"`;
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
  const [copied, setCopied] = useState("");
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const key = entry ? keys.find((k) => k.id === entry.keyId) : undefined;
  const command = entry ? curl(origin, entry) : "";
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(command);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is blocked here: select the command and copy it.");
    }
  };
  return (
    <Drawer
      open={entry !== null}
      onOpenChange={(o) => {
        if (!o) {
          setCopied("");
          onClose();
        }
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
          <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2">
            <dt className="text-muted">Request id</dt>
            <dd className="font-mono text-xs break-all">{entry.requestId}</dd>
            <dt className="text-muted">Time (UTC)</dt>
            <dd className="tabular-nums">{entry.time.replace("T", " ").replace("Z", "")}</dd>
            <dt className="text-muted">Method</dt>
            <dd>{entry.method}</dd>
            <dt className="text-muted">Route</dt>
            <dd className="font-mono text-xs break-all">{entry.path}</dd>
            <dt className="text-muted">Status</dt>
            <dd>
              {entry.status}
              {entry.errorCode ? ` · ${entry.errorCode}` : ""}
            </dd>
            <dt className="text-muted">Latency</dt>
            <dd>{entry.latencyMs} ms</dd>
            <dt className="text-muted">Key</dt>
            <dd className="min-w-0 break-words">
              {key ? `${key.name} ` : ""}
              <code>{entry.keyPrefix}…</code>
            </dd>
          </dl>
          <p className="text-xs text-muted">
            The log keeps the route, not the values in its path or query: fill in the placeholders to repeat the call.
          </p>
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
        </div>
      ) : null}
    </Drawer>
  );
}
