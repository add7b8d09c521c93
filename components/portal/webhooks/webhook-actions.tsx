"use client";

import type { FormEvent } from "react";
import type { WebhookView } from "@/lib/domain/webhooks";
import { Button, buttonClass } from "@/components/ui/button";
import { DotsIcon } from "@/components/ui/icons";
import { Menu, MenuItem, MenuSeparator } from "@/components/ui/menu";
import { type ConfirmActions, ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";

/** A call on one webhook: a path under its URL (`""` for the webhook itself), the method and the body. */
export type WebhookAction = { path: string; method: string; body?: unknown };

/** A webhook's `Actions` menu: pause or resume, send a test event, rotate the secret, delete. */
export function WebhookMenu({
  w,
  busy,
  run,
  onDelete,
}: {
  w: WebhookView;
  busy: boolean;
  run: (a: WebhookAction) => void;
  onDelete: () => void;
}) {
  return (
    <Menu
      trigger={
        <button
          type="button"
          className={buttonClass("secondary", "sm")}
          disabled={busy}
          aria-label={`Actions for ${w.url}`}
        >
          <DotsIcon />
          Actions
        </button>
      }
    >
      {w.status === "active" ? (
        <MenuItem onSelect={() => run({ path: "", method: "PATCH", body: { status: "paused" } })}>Pause</MenuItem>
      ) : w.disabledBy === null ? (
        <MenuItem onSelect={() => run({ path: "", method: "PATCH", body: { status: "active" } })}>
          {w.status === "disabled" ? "Re-enable" : "Resume"}
        </MenuItem>
      ) : null}
      <MenuItem disabled={w.status !== "active"} onSelect={() => run({ path: "/test", method: "POST" })}>
        Send test event
      </MenuItem>
      <MenuItem onSelect={() => run({ path: "/rotate-secret", method: "POST" })}>Rotate secret</MenuItem>
      <MenuSeparator />
      <MenuItem danger onSelect={onDelete}>
        Delete
      </MenuItem>
    </Menu>
  );
}

const dateInput = "h-8 rounded-md border border-line-strong bg-surface px-2 text-sm";

/** The `Replay time range` form: a from and a to time (UTC). */
export function ReplayRangeForm({
  busy,
  onSubmit,
}: {
  busy: boolean;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
}) {
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2 text-xs" noValidate>
      <label className="block text-muted">
        From (UTC)
        <input name="from" type="datetime-local" className={`block ${dateInput}`} />
      </label>
      <label className="block text-muted">
        To (UTC)
        <input name="to" type="datetime-local" className={`block ${dateInput}`} />
      </label>
      <Button type="submit" size="sm" disabled={busy}>
        Replay time range
      </Button>
    </form>
  );
}

/** The confirmation of deleting a webhook. */
export function DeleteWebhookDialog({
  w,
  open,
  error,
  ...actions
}: { w: WebhookView; open: boolean } & ConfirmActions) {
  return (
    <ConfirmDialog open={open} title="Delete this webhook?" confirmLabel="Delete webhook" danger {...actions}>
      <p className="text-sm break-all">
        Deliveries to {w.url} stop and queued ones are cancelled. This cannot be undone.
      </p>
      {error ? <ErrorNote error={error} /> : null}
    </ConfirmDialog>
  );
}
