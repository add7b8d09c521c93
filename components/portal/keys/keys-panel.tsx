"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CreatedKey, KeyListItem } from "@/lib/domain/keys";
import type { RolledKey } from "@/lib/domain/key-roll";
import { choicesOf, type FormValues } from "@/lib/contract/field-attrs";
import { rollKeyBody } from "@/lib/contract/portal-inputs";
import type { RollOverlap } from "@/lib/shared/input-choices";
import { ConfirmDialog } from "../confirm-dialog";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { NewKey, type ShownKey } from "./new-key";
import { CreateKeyForm, type CreateKeyInput } from "./create-key-form";
import { KeysTable } from "./keys-table";

const KEYS = ["portal", "keys"];
const OVERLAP_LABELS: Record<RollOverlap, string> = {
  now: "Now: the old key stops at once",
  "1h": "1 hour",
  "24h": "24 hours",
  "7d": "7 days",
};
type RollBody = FormValues<typeof rollKeyBody>;
const OVERLAPS = choicesOf(rollKeyBody.shape.overlap).map((value) => [value, OVERLAP_LABELS[value]] as const);

/** The keys page's live part: create, the once-shown key, the table, and the revoke / roll confirmations. */
/** `envs`: the key environments the member's role manages (Developer: test; Admin and Owner: test and live). */
export function KeysPanel({ initialKeys, envs }: { initialKeys: KeyListItem[]; envs: readonly ("test" | "live")[] }) {
  const canManage = envs.length > 0;
  const client = useQueryClient();
  const keys = useQuery({
    queryKey: KEYS,
    queryFn: () => portalFetch<KeyListItem[]>("/api/portal/keys"),
    initialData: initialKeys,
  });
  const [shown, setShown] = useState<ShownKey | null>(null);
  const [revoking, setRevoking] = useState<KeyListItem | null>(null);
  const [rolling, setRolling] = useState<KeyListItem | null>(null);
  const [overlap, setOverlap] = useState("1h");
  const [formId, setFormId] = useState(0);
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });

  const create = useMutation({
    mutationFn: (input: CreateKeyInput) =>
      portalFetch<CreatedKey, CreateKeyInput>("/api/portal/keys", { method: "POST", body: input }),
    onSuccess: (k) => {
      setShown({ label: `Your new ${k.env} key`, key: k.key, id: k.id });
      setFormId((n) => n + 1); // a fresh, empty form for the next key
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (k: KeyListItem) =>
      portalFetch(`/api/portal/keys/${encodeURIComponent(k.id)}/revoke`, { method: "POST" }),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });
  const roll = useMutation({
    mutationFn: (input: { k: KeyListItem; overlap: string }) =>
      portalFetch<RolledKey, RollBody>(`/api/portal/keys/${encodeURIComponent(input.k.id)}/roll`, {
        method: "POST",
        body: { overlap: input.overlap },
      }),
    onSuccess: (r) => {
      setRolling(null);
      setShown({ label: "Your replacement key", key: r.key.key, id: r.key.id });
      void refresh();
    },
  });

  return (
    <div className="space-y-6">
      {shown ? <NewKey shown={shown} onDone={() => setShown(null)} /> : null}
      {canManage ? (
        <CreateKeyForm
          key={formId}
          envs={envs}
          onCreate={(input) => create.mutate(input)}
          busy={create.isPending}
          error={create.error}
        />
      ) : (
        <p className="text-sm text-muted">Your role can see keys but not create, revoke or roll them.</p>
      )}
      <section aria-labelledby="keys-title" className="space-y-2">
        <h2 id="keys-title" className="text-base font-semibold">
          Keys
        </h2>
        {keys.isError ? <ErrorNote error={keys.error} /> : null}
        {keys.isFetching ? (
          <p className="sr-only" aria-live="polite">
            Loading keys…
          </p>
        ) : null}
        <KeysTable
          keys={keys.data ?? []}
          canManage={(k) => envs.includes(k.env)}
          onRevoke={(k) => {
            revoke.reset();
            setRevoking(k);
          }}
          onRoll={(k) => {
            roll.reset();
            setOverlap("1h");
            setRolling(k);
          }}
        />
      </section>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke key “${revoking?.name ?? ""}”?`}
        confirmLabel="Revoke key"
        danger
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      >
        <p className="text-sm">
          Calls with <code>{revoking?.prefix}…</code> will be refused with 401 <code>invalid_api_key</code> within 5
          seconds. Revocation cannot be undone.
        </p>
        <ErrorNote error={revoke.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={rolling !== null}
        title={`Roll key “${rolling?.name ?? ""}”?`}
        confirmLabel="Roll key"
        busy={roll.isPending}
        onConfirm={() => rolling && roll.mutate({ k: rolling, overlap })}
        onCancel={() => setRolling(null)}
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
                onChange={() => setOverlap(value)}
              />
              <label htmlFor={`overlap-${value}`}>{label}</label>
            </div>
          ))}
        </fieldset>
        <ErrorNote error={roll.error} />
      </ConfirmDialog>
    </div>
  );
}
