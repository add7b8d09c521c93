"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CreatedKey, KeyListItem } from "@/lib/domain/keys";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { PASTED } from "./own-keys";

const keyLabel = (k: Pick<KeyListItem, "name" | "prefix" | "env">) => `${k.name} (${k.prefix}…, ${k.env})`;

/**
 * Which key the playground calls with: one of the account's own keys that the member may use, chosen by name and
 * prefix (the server acts as it: no secret needed), or a pasted key. With none to choose, a Developer or above creates
 * a test key here, an ordinary key listed on the Keys page, shown once.
 */
export function KeyPicker({
  keys,
  loading,
  canCreate,
  choice,
  onChoice,
  pasted,
  onPasted,
}: {
  /** The account's active keys the member may use here. */
  keys: KeyListItem[];
  loading: boolean;
  canCreate: boolean;
  /** A key id, PASTED, or "" (none chosen). */
  choice: string;
  onChoice: (choice: string) => void;
  pasted: string;
  onPasted: (key: string) => void;
}) {
  const chosen = keys.find((k) => k.id === choice);
  const [created, setCreated] = useState<string | null>(null);
  const note = keyNote(chosen, choice === PASTED, loading);
  return (
    <div className="min-w-0 space-y-2">
      <label htmlFor="pg-key" className="block text-sm font-medium">
        Key
      </label>
      <select
        id="pg-key"
        value={choice}
        onChange={(e) => onChoice(e.target.value)}
        aria-describedby="pg-key-note"
        className="h-9 w-full min-w-0 rounded-md border border-line-strong bg-surface px-2 font-mono text-sm"
      >
        {choice === "" ? <option value="">Choose a key</option> : null}
        {keys.length > 0 ? (
          <optgroup label="Your keys">
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {keyLabel(k)}
              </option>
            ))}
          </optgroup>
        ) : null}
        <option value={PASTED}>Paste a key…</option>
      </select>
      <p id="pg-key-note" className="text-xs text-muted">
        {note}
      </p>
      {keys.length === 0 && !loading && choice !== PASTED ? (
        <CreateTestKey
          canCreate={canCreate}
          onCreated={(k) => {
            setCreated(k.key);
            onChoice(k.id);
          }}
        />
      ) : null}
      {created ? (
        <SecretOnce
          label="Your new test key"
          secret={created}
          note="Copy this key now to run the code below on your own machine: it is shown only once. The playground uses it by name, without the secret."
          onDone={() => setCreated(null)}
        />
      ) : null}
      {choice === PASTED ? <PastedKey value={pasted} onChange={onPasted} /> : null}
    </div>
  );
}

function keyNote(chosen: KeyListItem | undefined, pasted: boolean, loading: boolean): string {
  if (chosen)
    return `Runs as your key “${chosen.name}” on the server: no secret needed. It counts against this key's limits (${chosen.plan}) and shows in Logs.`;
  if (pasted) return "Any key works, yours or not: it is sent for this call only and never stored.";
  return loading ? "Looking for your keys…" : "You have no active key you can use here yet.";
}

function PastedKey({ value, onChange }: { value: string; onChange: (key: string) => void }) {
  return (
    <div className="space-y-1">
      <label htmlFor="pg-pasted" className="block text-sm font-medium">
        API key
      </label>
      <input
        id="pg-pasted"
        type="password"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required
        className="h-9 w-full rounded-md border border-line-strong bg-surface px-2 font-mono text-sm"
      />
    </div>
  );
}

/** A test key made here, named "Playground", when the member has none to choose: the one key from sign-up to a 200. */
function CreateTestKey({ canCreate, onCreated }: { canCreate: boolean; onCreated: (key: CreatedKey) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: () =>
      portalFetch<CreatedKey>("/api/portal/keys", { method: "POST", body: { name: "Playground", env: "test" } }),
    onSuccess: async (k) => {
      await queryClient.invalidateQueries({ queryKey: ["portal", "keys"] });
      onCreated(k);
    },
  });
  if (!canCreate)
    return (
      <p className="text-xs text-muted">
        Ask an Admin or the Owner of the account for a key, or paste one. Your keys are on the{" "}
        <a href="/dashboard/keys">API keys</a> page.
      </p>
    );
  return (
    <div className="space-y-2">
      <Button size="sm" variant="primary" onClick={() => create.mutate()} disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create a test key"}
      </Button>
      {create.isError ? <ErrorNote error={create.error} /> : null}
    </div>
  );
}
