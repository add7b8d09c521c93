"use client";

import type { RequestLogEntry } from "@/lib/shared/usage-types";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cellLabel, frame, table, tbody, td, th, thead, tr } from "@/components/ui/table";
import { Truncate } from "@/components/ui/truncate";
import { errorMessageOf } from "./response-body";

/** An error's code and, when kept, its message: one line, cut; the whole of it on hover, on focus and in Details. */
const errorLine = (e: RequestLogEntry) => {
  const message = errorMessageOf(e.errorBody);
  return message ? `${e.errorCode}: ${message}` : (e.errorCode ?? "");
};

/** The log's rows: one call each, newest first; an error shows its message, and Details opens the whole call. */
export function RequestLogTable({
  entries,
  keyName,
  onOpen,
}: {
  entries: RequestLogEntry[];
  keyName: (id: string) => string | undefined;
  onOpen: (entry: RequestLogEntry) => void;
}) {
  return (
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
            <th scope="col" className={`${th} w-56`}>
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
            <tr key={e.id} className={tr} data-request-id={e.requestId}>
              <td className={`${td} text-xs text-muted tabular-nums`}>{e.time.slice(0, 19).replace("T", " ")}</td>
              <td className={`${td} min-w-0`}>
                <span className="flex min-w-0 items-baseline gap-2">
                  <span className="w-10 shrink-0 font-mono text-xs font-semibold text-muted">{e.method}</span>
                  <Truncate text={e.path} min={30} className="font-mono text-xs" />
                </span>
              </td>
              <td className={`${td} min-w-0`}>
                <span className="flex min-w-0 items-center gap-2">
                  <Badge tone={statusTone(e.status)}>{e.status}</Badge>
                  {e.errorCode ? <Truncate text={errorLine(e)} min={26} className="font-mono text-xs" /> : null}
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
                <Button size="sm" variant="ghost" onClick={() => onOpen(e)} aria-label={`Details of ${e.requestId}`}>
                  Details
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
