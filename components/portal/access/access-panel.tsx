"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AccessRequestView } from "@/lib/domain/access-requests";
import type { FormValues } from "@/lib/contract/field-attrs";
import type { accessRequestBody } from "@/lib/contract/portal-inputs";
import { Badge } from "@/components/ui/badge";
import { ErrorNote } from "../error-note";
import { utcMinute } from "../format";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { AccessForm } from "./access-form";

const REQUESTS = ["portal", "access-requests"];
const STATUS = { pending: "Pending", approved: "Approved", rejected: "Rejected" } as const;

function age(r: AccessRequestView): string {
  const days = `${r.ageBusinessDays} business day${r.ageBusinessDays === 1 ? "" : "s"}`;
  if (r.status !== "pending") return `answered after ${days}`;
  return r.overdue
    ? `waiting ${days}: later than our 1–3 business-day promise, we are on it`
    : `waiting ${days} of our 1–3 business-day promise`;
}

/** One request: company and status, when it was sent and how long it waited, and the approved key's state. */
function RequestItem({
  r,
  volume,
  canManage,
  revealing,
  onReveal,
}: {
  r: AccessRequestView;
  volume: string;
  canManage: boolean;
  revealing: boolean;
  onReveal: () => void;
}) {
  return (
    <li className="rounded-lg border border-line bg-surface p-4" data-request-id={r.id}>
      <p className="font-medium">
        {r.company}{" "}
        <Badge className="ml-2" tone={r.status === "approved" ? "ok" : r.status === "rejected" ? "bad" : "info"}>
          {STATUS[r.status]}
        </Badge>
      </p>
      <p className="text-sm text-muted">
        Sent {utcMinute(r.createdAt)} · {volume} · {age(r)}
      </p>
      {r.status === "rejected" && r.reason ? <p className="mt-1 text-sm">Reason: {r.reason}</p> : null}
      {r.status === "approved" ? (
        r.keyWaiting ? (
          canManage ? (
            <button
              type="button"
              onClick={onReveal}
              disabled={revealing}
              className="mt-2 rounded bg-accent px-3 py-2 text-sm font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
            >
              Show my key (once)
            </button>
          ) : (
            <p className="mt-1 text-sm">The owner can show the key once.</p>
          )
        ) : (
          <p className="mt-1 text-sm">
            Key <code>{r.keyPrefix}…</code> was shown once; manage it on the Keys page.
          </p>
        )
      ) : null}
    </li>
  );
}

/** Requests with their status and age; an approved request's key is shown once on demand. */
export function AccessPanel({
  initial,
  canManage,
  volumes,
}: {
  initial: AccessRequestView[];
  canManage: boolean;
  volumes: Record<string, string>;
}) {
  const client = useQueryClient();
  const requests = useQuery({
    queryKey: REQUESTS,
    queryFn: () => portalFetch<AccessRequestView[]>("/api/portal/access-requests"),
    initialData: initial,
    refetchInterval: 30_000,
  });
  const [shown, setShown] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: REQUESTS });
  const submit = useMutation({
    mutationFn: (input: FormValues<typeof accessRequestBody>) =>
      portalFetch<AccessRequestView, FormValues<typeof accessRequestBody>>("/api/portal/access-requests", {
        method: "POST",
        body: input,
      }),
    onSuccess: () => void refresh(),
  });
  const reveal = useMutation({
    mutationFn: (id: string) =>
      portalFetch<{ key: string }>(`/api/portal/access-requests/${encodeURIComponent(id)}/key`, { method: "POST" }),
    onSuccess: (r) => {
      setShown(r.key);
      void refresh();
      void client.invalidateQueries({ queryKey: ["portal", "keys"] });
    },
  });
  const list = requests.data ?? [];
  const pending = list.some((r) => r.status === "pending");
  return (
    <div className="space-y-6">
      {shown ? <SecretOnce label="Your svc_sk_live_ key" secret={shown} onDone={() => setShown(null)} /> : null}
      {reveal.error ? <ErrorNote error={reveal.error} /> : null}
      {canManage && !pending ? (
        <AccessForm volumes={volumes} onSubmit={(i) => submit.mutate(i)} busy={submit.isPending} error={submit.error} />
      ) : null}
      {!canManage ? <p className="text-muted">Only an Admin or the Owner can request access.</p> : null}
      <section aria-labelledby="requests-title" className="space-y-3">
        <h2 id="requests-title" className="text-lg font-semibold">
          Your requests
        </h2>
        {requests.isError ? <ErrorNote error={requests.error} /> : null}
        {list.length === 0 ? (
          <p className="text-muted">No requests yet.</p>
        ) : (
          <ul className="space-y-3">
            {list.map((r) => (
              <RequestItem
                key={r.id}
                r={r}
                volume={volumes[r.expectedVolume] ?? r.expectedVolume}
                canManage={canManage}
                revealing={reveal.isPending}
                onReveal={() => reveal.mutate(r.id)}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
