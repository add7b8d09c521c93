"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { CreatedKey, KeyListItem } from "@/lib/domain/keys";
import type { RolledKey } from "@/lib/domain/key-roll";
import type { FormValues } from "@/lib/contract/field-attrs";
import type { rollKeyBody } from "@/lib/contract/portal-inputs";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { useConfirmed } from "../use-confirmed";
import { NewKey, type ShownKey } from "./new-key";
import { CreateKeyForm, type CreateKeyInput } from "./create-key-form";
import { RevokeKeyDialog, RollKeyDialog } from "./key-dialogs";
import { KeysTable } from "./keys-table";

const KEYS = ["portal", "keys"];
type RollBody = FormValues<typeof rollKeyBody>;

/** A key awaiting confirmation of its roll (with the overlap chosen), and the roll, which shows the replacement. */
function useRoll(refresh: () => Promise<void>, show: (k: ShownKey) => void) {
  const [rolling, setRolling] = useState<KeyListItem | null>(null);
  const [overlap, setOverlap] = useState("1h");
  const roll = useMutation({
    mutationFn: (input: { k: KeyListItem; overlap: string }) =>
      portalFetch<RolledKey, RollBody>(`/api/portal/keys/${encodeURIComponent(input.k.id)}/roll`, {
        method: "POST",
        body: { overlap: input.overlap },
      }),
    onSuccess: (r) => {
      setRolling(null);
      show({ label: "Your replacement key", key: r.key.key, id: r.key.id });
      void refresh();
    },
  });
  const start = (k: KeyListItem) => {
    roll.reset();
    setOverlap("1h");
    setRolling(k);
  };
  return { rolling, setRolling, overlap, setOverlap, roll, start };
}

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
  const [formId, setFormId] = useState(0);
  const refresh = () => client.invalidateQueries({ queryKey: KEYS });
  const revocation = useConfirmed(
    (k: KeyListItem) => portalFetch(`/api/portal/keys/${encodeURIComponent(k.id)}/revoke`, { method: "POST" }),
    refresh,
  );
  const { pending: revoking, setPending: setRevoking, mutation: revoke } = revocation;
  const { rolling, setRolling, overlap, setOverlap, roll, ...rollover } = useRoll(refresh, setShown);

  const create = useMutation({
    mutationFn: (input: CreateKeyInput) =>
      portalFetch<CreatedKey, CreateKeyInput>("/api/portal/keys", { method: "POST", body: input }),
    onSuccess: (k) => {
      setShown({ label: `Your new ${k.env} key`, key: k.key, id: k.id });
      setFormId((n) => n + 1); // a fresh, empty form for the next key
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
          onRevoke={revocation.start}
          onRoll={rollover.start}
        />
      </section>
      <RevokeKeyDialog
        revoking={revoking}
        busy={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => setRevoking(null)}
      />
      <RollKeyDialog
        rolling={rolling}
        overlap={overlap}
        onOverlap={setOverlap}
        busy={roll.isPending}
        error={roll.error}
        onConfirm={() => rolling && roll.mutate({ k: rolling, overlap })}
        onCancel={() => setRolling(null)}
      />
    </div>
  );
}
