"use client";

import type { DeliveryView } from "@/lib/domain/webhook-deliveries";
import { Badge, type Tone } from "@/components/ui/badge";
import { buttonClass } from "@/components/ui/button";
import { DotsIcon } from "@/components/ui/icons";
import { Menu, MenuItem } from "@/components/ui/menu";
import { EmptyState } from "@/components/ui/empty-state";
import { cellLabel, frame, table, tbody, td, th, thead, tr } from "@/components/ui/table";
import { Truncate } from "@/components/ui/truncate";
import { utcMinute } from "../format";

/** What an attempt got back, in words: the status code, or why there was none. */
export const attemptResult = (a: DeliveryView["attempts"][number]) =>
  a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "no answer");

/** A delivery's state as the user sees it: a pending delivery whose attempts failed is failing, with the reason. */
export function deliveryState(d: DeliveryView): { label: string; tone: Tone; reason: string | null } {
  const last = d.attempts.at(-1);
  const reason = last && d.status !== "succeeded" ? attemptResult(last) : null;
  if (d.status === "succeeded") return { label: "succeeded", tone: "ok", reason: null };
  if (d.status === "failed") return { label: "failed", tone: "bad", reason };
  if (d.status === "cancelled") return { label: "cancelled", tone: "neutral", reason: null };
  if (d.attempts.length > 0) return { label: `failed ${d.attempts.length}×, retrying`, tone: "bad", reason };
  return { label: "pending", tone: "info", reason: null };
}

/** One webhook's recent deliveries, each with its attempts, and a row menu (replay the event, copy its id). */
export function Deliveries({
  deliveries,
  canManage,
  replaying,
  onReplay,
}: {
  deliveries: DeliveryView[];
  canManage: boolean;
  replaying: boolean;
  onReplay: (eventId: string) => void;
}) {
  if (deliveries.length === 0)
    return (
      <EmptyState title="No deliveries yet">
        Use <strong>Send test event</strong> to check that your endpoint answers 2xx and verifies the signature.
      </EmptyState>
    );
  return (
    <div className={frame}>
      <table className={table} aria-label="Deliveries">
        <thead className={thead}>
          <tr>
            <th scope="col" className={th}>
              Event
            </th>
            <th scope="col" className={`${th} w-48`}>
              Status
            </th>
            <th scope="col" className={`${th} w-64`}>
              Attempts
            </th>
            <th scope="col" className={`${th} w-44`}>
              Created (UTC)
            </th>
            {canManage ? (
              <th scope="col" className={`${th} w-16`}>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className={tbody}>
          {deliveries.map((d) => {
            const s = deliveryState(d);
            return (
              <tr key={d.deliveryId} className={tr} data-testid="delivery">
                <td className={`${td} min-w-0`}>
                  <span className="flex min-w-0 items-baseline gap-2">
                    <Truncate text={d.eventType} min={22} className="font-mono text-xs" />
                    {d.symbol ? <span className="shrink-0 text-xs text-muted">{d.symbol}</span> : null}
                  </span>
                  <span className="block truncate font-mono text-xs text-muted" title={d.eventId}>
                    {d.eventId}
                  </span>
                </td>
                <td className={`${td} min-w-0`}>
                  <span className={cellLabel}>Status</span>
                  <Badge tone={s.tone}>{s.label}</Badge>
                  {s.reason ? <span className="mt-0.5 block truncate text-xs text-bad">{s.reason}</span> : null}
                  {d.nextAttemptAt ? (
                    <span className="block text-xs text-muted">next try {utcMinute(d.nextAttemptAt)}</span>
                  ) : null}
                </td>
                <td className={`${td} min-w-0`}>
                  <span className={cellLabel}>Attempts</span>
                  {d.attempts.length === 0 ? (
                    <span className="text-xs text-muted">none yet</span>
                  ) : (
                    <details className="text-xs">
                      <summary className="cursor-pointer">
                        {d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"}
                      </summary>
                      <ol className="mt-1 space-y-1">
                        {d.attempts.map((a, i) => (
                          <li key={i} data-testid="attempt" className="min-w-0">
                            <span className="tabular-nums">{a.attemptedAt.slice(0, 19).replace("T", " ")}</span> ·{" "}
                            <span className={a.statusCode && a.statusCode < 300 ? "text-ok" : "text-bad"}>
                              {attemptResult(a)}
                            </span>{" "}
                            · {a.latencyMs} ms
                            {a.responseExcerpt ? (
                              <span className="block truncate font-mono text-muted" title={a.responseExcerpt}>
                                {a.responseExcerpt}
                              </span>
                            ) : null}
                          </li>
                        ))}
                      </ol>
                    </details>
                  )}
                </td>
                <td className={`${td} text-xs text-muted tabular-nums`}>
                  <span className={cellLabel}>Created</span>
                  {utcMinute(d.createdAt)}
                </td>
                {canManage ? (
                  <td className={`${td} md:text-right`}>
                    <Menu
                      trigger={
                        <button
                          type="button"
                          className={buttonClass("ghost", "sm")}
                          disabled={replaying}
                          aria-label={`Actions for event ${d.eventId}`}
                        >
                          <DotsIcon />
                        </button>
                      }
                    >
                      <MenuItem onSelect={() => onReplay(d.eventId)}>Replay this event</MenuItem>
                      <MenuItem onSelect={() => void navigator.clipboard?.writeText(d.eventId)}>Copy event id</MenuItem>
                    </Menu>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
