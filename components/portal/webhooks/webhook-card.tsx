"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { DeliveryView } from "@/lib/domain/webhook-deliveries";
import type { RotatedSecret } from "@/lib/domain/webhook-status";
import type { WebhookView } from "@/lib/domain/webhooks";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button, buttonClass } from "@/components/ui/button";
import { DotsIcon } from "@/components/ui/icons";
import { Menu, MenuItem, MenuSeparator } from "@/components/ui/menu";
import { Skeleton } from "@/components/ui/skeleton";
import { Truncate } from "@/components/ui/truncate";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { utcMinute } from "../format";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { Deliveries, deliveryState } from "./deliveries";

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

/** One webhook: status and health, its actions, the replay-range form and its deliveries. */
export function WebhookCard({ w, canManage }: { w: WebhookView; canManage: boolean }) {
  const client = useQueryClient();
  const base = `/api/portal/webhooks/${w.webhookId}`;
  const deliveriesKey = ["portal", "webhooks", w.webhookId, "deliveries"];
  const refresh = () => client.invalidateQueries({ queryKey: ["portal", "webhooks"] });
  const [deleting, setDeleting] = useState(false);
  const [rotated, setRotated] = useState<RotatedSecret | null>(null);
  const [note, setNote] = useState("");
  const [rangeError, setRangeError] = useState("");
  const deliveries = useQuery({
    queryKey: deliveriesKey,
    queryFn: () => portalFetch<DeliveryView[]>(`${base}/deliveries`),
    refetchInterval: 5000,
  });
  const act = useMutation({
    mutationFn: (a: { path: string; method: string; body?: unknown }) =>
      portalFetch<unknown>(`${base}${a.path}`, { method: a.method, body: a.body }),
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
  function replayRange(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const range = replayRangeOf(new FormData(e.currentTarget));
    setRangeError(typeof range === "string" ? range : "");
    if (typeof range !== "string") act.mutate({ path: "/replay", method: "POST", body: range });
  }
  const h = health(w, deliveries.data);
  const titleId = `wh-${w.webhookId}`;
  const dateInput = "h-8 rounded-md border border-line-strong bg-surface px-2 text-sm";
  return (
    <li
      className="space-y-4 rounded-lg border border-line bg-surface p-4"
      aria-labelledby={titleId}
      data-testid="webhook"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
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
        {canManage ? (
          <Menu
            trigger={
              <button
                type="button"
                className={buttonClass("secondary", "sm")}
                disabled={act.isPending}
                aria-label={`Actions for ${w.url}`}
              >
                <DotsIcon />
                Actions
              </button>
            }
          >
            {w.status === "active" ? (
              <MenuItem onSelect={() => act.mutate({ path: "", method: "PATCH", body: { status: "paused" } })}>
                Pause
              </MenuItem>
            ) : w.disabledBy === null ? (
              <MenuItem onSelect={() => act.mutate({ path: "", method: "PATCH", body: { status: "active" } })}>
                {w.status === "disabled" ? "Re-enable" : "Resume"}
              </MenuItem>
            ) : null}
            <MenuItem disabled={w.status !== "active"} onSelect={() => act.mutate({ path: "/test", method: "POST" })}>
              Send test event
            </MenuItem>
            <MenuItem onSelect={() => act.mutate({ path: "/rotate-secret", method: "POST" })}>Rotate secret</MenuItem>
            <MenuSeparator />
            <MenuItem
              danger
              onSelect={() => {
                act.reset();
                setDeleting(true);
              }}
            >
              Delete
            </MenuItem>
          </Menu>
        ) : null}
      </div>
      {w.disabledReason ? (
        <p className="rounded-md bg-bad-soft p-2 text-sm text-bad" data-testid="webhook-disabled-reason">
          Disabled: {w.disabledReason}
        </p>
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
      <p aria-live="polite" className="text-sm empty:hidden">
        {note}
      </p>
      {act.error && !deleting ? <ErrorNote error={act.error} /> : null}
      <div className="space-y-2">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h4 className="text-sm font-semibold">Deliveries</h4>
          {canManage ? (
            <form onSubmit={replayRange} className="flex flex-wrap items-end gap-2 text-xs" noValidate>
              <label className="block text-muted">
                From (UTC)
                <input name="from" type="datetime-local" className={`block ${dateInput}`} />
              </label>
              <label className="block text-muted">
                To (UTC)
                <input name="to" type="datetime-local" className={`block ${dateInput}`} />
              </label>
              <Button type="submit" size="sm" disabled={act.isPending}>
                Replay time range
              </Button>
            </form>
          ) : null}
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
      <ConfirmDialog
        open={deleting}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        danger
        busy={act.isPending}
        onConfirm={() => act.mutate({ path: "", method: "DELETE" })}
        onCancel={() => setDeleting(false)}
      >
        <p className="text-sm break-all">
          Deliveries to {w.url} stop and queued ones are cancelled. This cannot be undone.
        </p>
        {act.error ? <ErrorNote error={act.error} /> : null}
      </ConfirmDialog>
    </li>
  );
}
