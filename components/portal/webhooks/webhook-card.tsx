"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { RotatedSecret } from "@/lib/domain/webhook-status";
import type { WebhookView } from "@/lib/domain/webhooks";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { Deliveries } from "./deliveries";

const btn = "rounded border border-line-strong px-3 py-1.5 text-sm font-medium hover:bg-hover disabled:opacity-60";

/** One webhook: status (and why it was disabled), its actions, the replay-range form and its deliveries. */
export function WebhookCard({ w, canManage }: { w: WebhookView; canManage: boolean }) {
  const client = useQueryClient();
  const base = `/api/portal/webhooks/${w.webhookId}`;
  const refresh = () => client.invalidateQueries({ queryKey: ["portal", "webhooks"] });
  const [deleting, setDeleting] = useState(false);
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const [note, setNote] = useState("");
  const [rangeError, setRangeError] = useState("");
  const act = useMutation({
    mutationFn: (a: { path: string; method: string; body?: unknown }) =>
      portalFetch<unknown>(`${base}${a.path}`, { method: a.method, body: a.body }),
    onSuccess: (data, a) => {
      if (a.path === "/rotate-secret") setRotated(data as RotatedSecret);
      if (a.path === "/test") setNote(`Test event ${(data as { eventId: string }).eventId} queued.`);
      if (a.path === "/replay") setNote(`${(data as { queued: number }).queued} event(s) queued again.`);
      if (a.method === "DELETE") setDeleting(false);
      void refresh();
    },
  });
  function replayRange(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setRangeError("");
    if (!f.get("from") || !f.get("to")) return setRangeError("Choose both a from and a to time (UTC).");
    const iso = (k: string) => {
      const v = String(f.get(k) ?? "");
      const d = new Date(`${v}Z`);
      return v && !Number.isNaN(d.getTime()) ? d.toISOString() : v;
    };
    act.mutate({ path: "/replay", method: "POST", body: { from: iso("from"), to: iso("to") } });
  }
  const titleId = `wh-${w.webhookId}`;
  return (
    <li className="space-y-3 rounded border border-line p-4" aria-labelledby={titleId} data-testid="webhook">
      <h3 id={titleId} className="break-all font-semibold">
        {w.url}
      </h3>
      <p className="text-sm">
        Status: <strong data-testid="webhook-status">{w.status}</strong> · {w.environment} · events{" "}
        {w.events.join(", ")} · symbols {w.symbols.join(", ")}
      </p>
      {w.disabledReason ? (
        <p className="rounded bg-bad-soft p-2 text-sm text-bad">Disabled by the service: {w.disabledReason}</p>
      ) : null}
      {rotated ? (
        <SecretOnce
          label="Your new signing secret"
          what="signing secret"
          secret={rotated.signingSecret}
          onDone={() => setRotated(null)}
          note={`Copy this secret now: it is shown only once. Until ${rotated.previousSecretExpiresAt.slice(0, 16).replace("T", " ")} UTC (24 hours) every delivery is signed with both the new and the previous secret.`}
        />
      ) : null}
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {w.status === "active" ? (
            <button
              type="button"
              className={btn}
              disabled={act.isPending}
              onClick={() => act.mutate({ path: "", method: "PATCH", body: { status: "paused" } })}
            >
              Pause
            </button>
          ) : (
            <button
              type="button"
              className={btn}
              disabled={act.isPending}
              onClick={() => act.mutate({ path: "", method: "PATCH", body: { status: "active" } })}
            >
              {w.status === "disabled" ? "Re-enable" : "Resume"}
            </button>
          )}
          <button
            type="button"
            className={btn}
            disabled={act.isPending}
            onClick={() => act.mutate({ path: "/test", method: "POST" })}
          >
            Send test event
          </button>
          <button
            type="button"
            className={btn}
            disabled={act.isPending}
            onClick={() => act.mutate({ path: "/rotate-secret", method: "POST" })}
          >
            Rotate secret
          </button>
          <button
            type="button"
            className={`${btn} border-bad/40 text-bad`}
            onClick={() => {
              act.reset();
              setDeleting(true);
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
      <p aria-live="polite" className="text-sm">
        {note}
      </p>
      {act.error && !deleting ? <ErrorNote error={act.error} /> : null}
      {canManage ? (
        <form onSubmit={replayRange} className="flex flex-wrap items-end gap-2 text-sm" noValidate>
          <label className="block">
            From (UTC)
            <input name="from" type="datetime-local" className="block rounded border border-line-strong px-2 py-1" />
          </label>
          <label className="block">
            To (UTC)
            <input name="to" type="datetime-local" className="block rounded border border-line-strong px-2 py-1" />
          </label>
          <button type="submit" className={btn} disabled={act.isPending}>
            Replay time range
          </button>
        </form>
      ) : null}
      {rangeError ? (
        <p role="alert" className="text-sm text-bad">
          {rangeError}
        </p>
      ) : null}
      <details open>
        <summary className="cursor-pointer font-medium">Deliveries</summary>
        <Deliveries webhookId={w.webhookId} canManage={canManage} />
      </details>
      <ConfirmDialog
        open={deleting}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        danger
        busy={act.isPending}
        onConfirm={() => act.mutate({ path: "", method: "DELETE" })}
        onCancel={() => setDeleting(false)}
      >
        <p className="break-all text-sm">
          Deliveries to {w.url} stop and queued ones are cancelled. This cannot be undone.
        </p>
        {act.error ? <ErrorNote error={act.error} /> : null}
      </ConfirmDialog>
    </li>
  );
}
