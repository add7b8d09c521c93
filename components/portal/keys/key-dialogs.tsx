"use client";

import type { KeyListItem } from "@/lib/domain/keys";
import { choicesOf } from "@/lib/contract/field-attrs";
import { rollKeyBody } from "@/lib/contract/portal-inputs";
import type { RollOverlap } from "@/lib/shared/input-choices";
import { type ConfirmActions, ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";

const OVERLAP_LABELS: Record<RollOverlap, string> = {
  now: "Now: the old key stops at once",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};
const OVERLAPS = choicesOf(rollKeyBody.shape.overlap).map((value) => [value, OVERLAP_LABELS[value]] as const);

/** The confirmation of revoking a key. */
export function RevokeKeyDialog({ revoking, error, ...actions }: { revoking: KeyListItem | null } & ConfirmActions) {
  return (
    <ConfirmDialog
      open={revoking !== null}
      title={`Revoke key “${revoking?.name ?? ""}”?`}
      confirmLabel="Revoke key"
      danger
      {...actions}
    >
      <p className="text-sm">
        Calls with <code>{revoking?.prefix}…</code> will be refused with 401 <code>invalid_api_key</code> within 5
        seconds. Revocation cannot be undone.
      </p>
      <ErrorNote error={error} />
    </ConfirmDialog>
  );
}

/** The confirmation of rolling a key, with how long the old key keeps working. */
export function RollKeyDialog({
  rolling,
  overlap,
  onOverlap,
  error,
  ...actions
}: { rolling: KeyListItem | null; overlap: string; onOverlap: (overlap: string) => void } & ConfirmActions) {
  return (
    <ConfirmDialog
      open={rolling !== null}
      title={`Roll key “${rolling?.name ?? ""}”?`}
      confirmLabel="Roll key"
      {...actions}
    >
      <p className="text-sm">
        A new key of the same kind replaces <code>{rolling?.prefix}…</code>. The old key keeps working for the overlap
        you choose, then expires by itself.
      </p>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Old key keeps working for</legend>
        {OVERLAPS.map(([value, label]) => (
          <div key={value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              id={`overlap-${value}`}
              name="overlap"
              value={value}
              checked={overlap === value}
              onChange={() => onOverlap(value)}
            />
            <label htmlFor={`overlap-${value}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <ErrorNote error={error} />
    </ConfirmDialog>
  );
}
