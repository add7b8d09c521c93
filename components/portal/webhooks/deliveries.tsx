"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DeliveryView } from "@/lib/domain/webhook-deliveries";
import { ErrorNote } from "../error-note";
import { utcMinute } from "../format";
import { portalFetch } from "../portal-fetch";
import { QueryState } from "../query-state";

/** One webhook's recent deliveries, each with its attempts, and a replay button per event. */
export function Deliveries({ webhookId, canManage }: { webhookId: string; canManage: boolean }) {
  const client = useQueryClient();
  const key = ["portal", "webhooks", webhookId, "deliveries"];
  const q = useQuery({
    queryKey: key,
    queryFn: () => portalFetch<DeliveryView[]>(`/api/portal/webhooks/${webhookId}/deliveries`),
    refetchInterval: 5000,
  });
  const replay = useMutation({
    mutationFn: (eventId: string) =>
      portalFetch(`/api/portal/webhooks/${webhookId}/replay`, { method: "POST", body: { eventId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <div className="space-y-2">
      <ErrorNote error={replay.error} />
      <QueryState query={q} what="deliveries">
        {(ds) =>
          ds.length === 0 ? (
            <p className="text-sm text-muted">No deliveries yet.</p>
          ) : (
            <ul className="space-y-3" aria-label="Deliveries">
              {ds.map((d) => (
                <li key={d.deliveryId} className="rounded border border-line p-3 text-sm" data-testid="delivery">
                  <p className="flex flex-wrap gap-x-3">
                    <code>{d.eventType}</code>
                    <span>{d.symbol ?? ""}</span>
                    <span className="font-medium">{d.status}</span>
                    <span>{utcMinute(d.createdAt)}</span>
                    <span className="break-all text-muted">
                      webhook-id <code>{d.eventId}</code>
                    </span>
                    {d.nextAttemptAt ? <span>next try {utcMinute(d.nextAttemptAt)}</span> : null}
                  </p>
                  {canManage ? (
                    <button
                      type="button"
                      onClick={() => replay.mutate(d.eventId)}
                      disabled={replay.isPending}
                      className="mt-1 rounded border border-line-strong px-2 py-1 text-xs hover:bg-hover"
                    >
                      Replay this event
                    </button>
                  ) : null}
                  {d.attempts.length > 0 ? (
                    <div
                      className="mt-2 overflow-x-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-focus"
                      tabIndex={0}
                      role="region"
                      aria-label={`Attempts of ${d.eventId}`}
                    >
                      <table className="min-w-full text-left text-xs">
                        <caption className="sr-only">Attempts of {d.eventId}</caption>
                        <thead>
                          <tr>
                            <th scope="col" className="pr-3">
                              Time (UTC)
                            </th>
                            <th scope="col" className="pr-3">
                              Status code
                            </th>
                            <th scope="col" className="pr-3">
                              Latency
                            </th>
                            <th scope="col">Response (first bytes)</th>
                          </tr>
                        </thead>
                        <tbody>
                          {d.attempts.map((a, i) => (
                            <tr key={i} data-testid="attempt">
                              <td className="pr-3 whitespace-nowrap">{a.attemptedAt.slice(0, 19).replace("T", " ")}</td>
                              <td className="pr-3">{a.statusCode ?? a.error ?? "none"}</td>
                              <td className="pr-3">{a.latencyMs} ms</td>
                              <td className="break-all font-mono">{a.responseExcerpt ?? ""}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </div>
  );
}
