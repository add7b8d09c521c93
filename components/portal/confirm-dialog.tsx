"use client";

import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";

/** What a confirmation of a mutation takes from it: busy while it runs, its error, confirm and cancel. */
export type ConfirmActions = { busy: boolean; error: unknown; onConfirm: () => void; onCancel: () => void };

/** A modal confirmation (focus kept inside, Escape cancels) with Cancel and the confirming action. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
  danger,
  disabled,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  /** The confirming action waits for something (a typed confirmation). */
  disabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => (o ? undefined : onCancel())} title={title}>
      {/* noValidate: a required field's message comes from the server next to the field, as in every other form. */}
      <form
        className="space-y-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onConfirm();
        }}
      >
        {children}
        <div className="flex flex-wrap justify-end gap-2">
          <Button onClick={onCancel}>Cancel</Button>
          <Button
            type="submit"
            disabled={busy || disabled}
            variant={danger ? "primary" : "primary"}
            className={
              danger
                ? "bg-red-700 hover:bg-red-800 disabled:bg-hover disabled:text-muted dark:bg-red-600 dark:hover:bg-red-500 dark:disabled:bg-hover"
                : undefined
            }
          >
            {busy ? "Working…" : confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
