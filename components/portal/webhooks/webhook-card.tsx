"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { DeliveryView } from "@/lib/domain/webhook-deliveries";
import type { RotatedSecret } from "@/lib/domain/webhook-status";
import type { WebhookView } from "@/lib/domain/webhooks";
import { Badge, type Tone } from "@/components/ui/badge";
import { Skeleton } from "@/components/ui/skeleton";
import { Truncate } from "@/components/ui/truncate";
import { ErrorNote } from "../error-note";
import { utcMinute } from "../format";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { Deliveries, deliveryState } from "./deliveries";
import { DeleteWebhookDialog, ReplayRangeForm, type WebhookAction, WebhookMenu } from "./webhook-actions";

const STATUS_TONE: Record<WebhookView["status"], Tone> = {
  active: "ok",
  paused: "neutral",
  disabled: "bad",
  deleted: "neutral",
};

/** Health from the recent deliveries: the last success and how many of the newest ones in a row failed. */
function health(w: WebhookView, ds: DeliveryView[] | undefined) {
  const delivered = (ds ?? []).flatMap((d) => (d.deliveredAt ? [d.deliveredAt] : [])).sort();
  const lastSuccess = delivered.at(-1) ?? null;
  let streak = 0;
  for (const d of ds ?? []) {
    if (deliveryState(d).tone !== "bad") break;
    streak++;
  }
  const state: { label: string; tone: Tone } =
    w.status === "disabled"
      ? { label: "disabled", tone: "bad" }
      : streak > 0
        ? { label: "failing", tone: "bad" }
        : lastSuccess
          ? { label: "healthy", tone: "ok" }
          : { label: "no deliveries yet", tone: "neutral" };
  return { state, streak, lastSuccess };
}

/** The replay form's range as UTC ISO times, or what is wrong with it in the form's own words. */
function replayRangeOf(f: FormData): { from: string; to: string } | string {
  if (!f.get("from") || !f.get("to")) return "Choose both a from and a to time (UTC).";
  const iso = (k: string) => {
    const v = String(f.get(k) ?? "");
    const d = new Date(`${v}Z`);
    return v && !Number.isNaN(d.getTime()) ? d.toISOString() : v;
  };
  const range = { from: iso("from"), to: iso("to") };
  return range.from < range.to ? range : "The From time must be before the To time.";
}

/** A webhook's calls and what they leave to show: the secret rotated, a note, the delete confirmation's state. */
function useWebhookActions(w: WebhookView) {
  const client = useQueryClient();
  const base = `/api/portal/webhooks/${w.webhookId}`;
  const refresh = () => client.invalidateQueries({ queryKey: ["portal", "webhooks"] });
  const [deleting, setDeleting] = useState(false);
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const [note, setNote] = useState("");
  const act = useMutation({
    mutationFn: (a: WebhookAction) => portalFetch<unknown>(`${base}${a.path}`, { method: a.method, body: a.body }),
    onSuccess: (data, a) => {
      if (a.path === "/rotate-secret") setRotated(data as RotatedSecret);
      if (a.path === "/test") setNote(`Test event ${(data as { eventId: string }).eventId} queued.`);
      if (a.path === "/replay") {
        const queued = (data as { queued?: number } | null)?.queued;
        setNote(typeof queued === "number" ? `${queued} event(s) queued again.` : "The event is queued again.");
      }
      if (a.method === "DELETE") setDeleting(false);
      void refresh();
    },
  });
  return { act, deleting, setDeleting, rotated, setRotated, note };
}

/** The replay-range form's submit: a valid range is replayed, anything else said in the form's own words. */
function useReplayRange(run: (a: WebhookAction) => void) {
  const [rangeError, setRangeError] = useState("");
  function replayRange(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const range = replayRangeOf(new FormData(e.currentTarget));
    setRangeError(typeof range === "string" ? range : "");
    if (typeof range !== "string") run({ path: "/replay", method: "POST", body: range });
  }
  return { rangeError, replayRange };
}

/** The new signing secret after a rotation, shown once, and until when the previous one still signs. */
function RotatedSecretOnce({ rotated, onDone }: { rotated: RotatedSecret; onDone: () => void }) {
  return (
    <SecretOnce
      label="Your new signing secret"
      what="signing secret"
      secret={rotated.signingSecret}
      onDone={onDone}
      note={`Copy this secret now: it is shown only once. Until ${rotated.previousSecretExpiresAt.slice(0, 16).replace("T", " ")} UTC (24 hours) every delivery is signed with both the new and the previous secret.`}
    />
  );
}

/** A webhook's URL (the card's title), its status and health badges, the last success, its events and symbols. */
function WebhookSummary({ w, h, titleId }: { w: WebhookView; h: ReturnType<typeof health>; titleId: string }) {
  return (
    <div className="min-w-0 flex-1 space-y-1.5">
      <h3 id={titleId} className="min-w-0 font-mono text-sm font-semibold">
        <Truncate text={w.url} min={60} />
      </h3>
      <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted">
        <Badge tone={STATUS_TONE[w.status]} data-testid="webhook-status">
          {w.status}
        </Badge>
        <Badge tone={h.state.tone}>{h.state.label}</Badge>
        <Badge tone={w.environment === "live" ? "info" : "neutral"}>{w.environment}</Badge>
        <span>
          last success {h.lastSuccess ? utcMinute(h.lastSuccess) : "never"}
          {h.streak > 0 ? ` · ${h.streak} failed in a row` : ""}
        </span>
      </p>
      <p className="text-xs text-muted">
        {w.events.join(", ")} · {w.symbols.join(", ")}
      </p>
    </div>
  );
}

/** One webhook: status and health, its actions, the replay-range form and its deliveries. */
export function WebhookCard({ w, canManage }: { w: WebhookView; canManage: boolean }) {
  const { act, deleting, setDeleting, rotated, setRotated, note } = useWebhookActions(w);
  const { rangeError, replayRange } = useReplayRange(act.mutate);
  const deliveries = useQuery({
    queryKey: ["portal", "webhooks", w.webhookId, "deliveries"],
    queryFn: () => portalFetch<DeliveryView[]>(`/api/portal/webhooks/${w.webhookId}/deliveries`),
    refetchInterval: 5000,
  });
  const titleId = `wh-${w.webhookId}`;
  return (
    <li
      className="space-y-4 rounded-lg border border-line bg-surface p-4"
      aria-labelledby={titleId}
      data-testid="webhook"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <WebhookSummary w={w} h={health(w, deliveries.data)} titleId={titleId} />
        {canManage ? (
          <WebhookMenu
            w={w}
            busy={act.isPending}
            run={act.mutate}
            onDelete={() => {
              act.reset();
              setDeleting(true);
            }}
          />
        ) : null}
      </div>
      {w.disabledReason ? (
        <p className="rounded-md bg-bad-soft p-2 text-sm text-bad" data-testid="webhook-disabled-reason">
          Disabled: {w.disabledReason}
        </p>
      ) : null}
      {rotated ? <RotatedSecretOnce rotated={rotated} onDone={() => setRotated(null)} /> : null}
      <p aria-live="polite" className="text-sm empty:hidden">
        {note}
      </p>
      {act.error && !deleting ? <ErrorNote error={act.error} /> : null}
      <div className="space-y-2">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h4 className="text-sm font-semibold">Deliveries</h4>
          {canManage ? <ReplayRangeForm busy={act.isPending} onSubmit={replayRange} /> : null}
        </div>
        {rangeError ? (
          <p role="alert" className="text-sm text-bad">
            {rangeError}
          </p>
        ) : null}
        {deliveries.isPending ? (
          <Skeleton what="deliveries" rows={2} />
        ) : deliveries.isError ? (
          <ErrorNote error={deliveries.error} />
        ) : (
          <Deliveries
            deliveries={deliveries.data}
            canManage={canManage}
            replaying={act.isPending}
            onReplay={(eventId) => act.mutate({ path: "/replay", method: "POST", body: { eventId } })}
          />
        )}
      </div>
      <DeleteWebhookDialog
        w={w}
        open={deleting}
        busy={act.isPending}
        error={act.error}
        onConfirm={() => act.mutate({ path: "", method: "DELETE" })}
        onCancel={() => setDeleting(false)}
      />
    </li>
  );
}
