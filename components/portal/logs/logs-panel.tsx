"use client";

import { useState, type FormEvent } from "react";
import type { UsageEndpoint, UsageKey } from "@/lib/shared/usage-types";
import { Button } from "@/components/ui/button";
import { SearchInput } from "@/components/ui/search-input";
import { RequestLog } from "./request-log";

/** Keeps the searched id in the address, so a found request can be linked to (`/dashboard/logs?request_id=…`). */
function showInAddress(requestId: string) {
  const url = new URL(window.location.href);
  if (requestId) url.searchParams.set("request_id", requestId);
  else url.searchParams.delete("request_id");
  window.history.replaceState(null, "", url);
}

/** The Logs page: find one request by its id, or browse the log with its filters, live or paused. */
export function LogsPanel({
  keys,
  endpoints,
  statusClasses,
  errorCodes,
  initialRequestId = "",
}: {
  keys: UsageKey[];
  endpoints: UsageEndpoint[];
  statusClasses: readonly string[];
  errorCodes: readonly string[];
  initialRequestId?: string;
}) {
  const [typed, setTyped] = useState(initialRequestId);
  const [requestId, setRequestId] = useState(initialRequestId);
  const [live, setLive] = useState(true);
  const find = (id: string) => {
    setTyped(id);
    setRequestId(id);
    showInAddress(id);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    find(typed.trim());
  };
  return (
    <div className="space-y-4">
      <form role="search" aria-label="Find a request" onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="log-request-id" className="block text-sm font-medium">
            Request id
          </label>
          <SearchInput
            id="log-request-id"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="req_… (the X-Request-Id header)"
            maxLength={128}
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
          />
        </div>
        <Button type="submit" variant="primary">
          Find request
        </Button>
        {requestId ? <Button onClick={() => find("")}>Show all requests</Button> : null}
      </form>
      <RequestLog
        keys={keys}
        endpoints={endpoints}
        statusClasses={statusClasses}
        errorCodes={errorCodes}
        requestId={requestId}
        live={live}
        onToggleLive={() => setLive((l) => !l)}
      />
    </div>
  );
}
