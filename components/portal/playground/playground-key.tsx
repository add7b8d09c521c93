"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { PlaygroundKeyInfo } from "@/lib/domain/playground";
import { Button } from "@/components/ui/button";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";

export type KeyMode = "playground" | "pasted";

/**
 * Which of the user's own keys the playground calls with: the account's playground test key (made only by the owner's
 * click on “Create a test key”, then listed on the Keys page like any key) or a key they paste.
 */
export function PlaygroundKey({
  info,
  loading,
  isOwner,
  mode,
  onMode,
  pasted,
  onPasted,
}: {
  info: PlaygroundKeyInfo | null;
  loading: boolean;
  isOwner: boolean;
  mode: KeyMode;
  onMode: (mode: KeyMode) => void;
  pasted: string;
  onPasted: (key: string) => void;
}) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      portalFetch<PlaygroundKeyInfo & { key: string }>("/api/portal/playground/key", { method: "POST" }),
    onSuccess: (k) => {
      setCreated(k.key);
      queryClient.setQueryData(["portal", "playground-key"], { keyId: k.keyId, prefix: k.prefix });
      void queryClient.invalidateQueries({ queryKey: ["portal", "keys"] });
    },
  });

  let note: ReactNode;
  if (info) note = "A Sandbox test key on demo data, named “Playground” on your Keys page, where you can revoke it.";
  else if (loading) note = "Looking for your playground key…";
  else if (isOwner)
    note = (
      <span className="block space-y-2">
        <span className="block">
          You have no playground key yet. Create a Sandbox test key on demo data for it: it is named “Playground” and
          listed on your Keys page like any key you make.
        </span>
        <Button size="sm" variant="primary" onClick={() => create.mutate()} disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create a test key"}
        </Button>
      </span>
    );
  else note = "Your account has no playground key and only its owner can create one: paste one of your keys instead.";

  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Key</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="pg-key" checked={mode === "playground"} onChange={() => onMode("playground")} />{" "}
        {info ? `My playground test key (${info.prefix}…)` : "My playground test key"}
      </label>
      {mode === "playground" ? <div className="pl-6 text-xs text-muted">{note}</div> : null}
      {create.isError ? <ErrorNote error={create.error} /> : null}
      {created ? (
        <SecretOnce
          label="Your playground test key"
          secret={created}
          note="Copy this key now to run the code below on your own machine: it is shown only once. The playground keeps using it for you."
          onDone={() => setCreated(null)}
        />
      ) : null}
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="pg-key" checked={mode === "pasted"} onChange={() => onMode("pasted")} /> Paste a key
      </label>
      {mode === "pasted" && (
        <div className="space-y-1 pl-6">
          <label htmlFor="pg-pasted" className="block text-sm font-medium">
            API key
          </label>
          <input
            id="pg-pasted"
            type="password"
            autoComplete="off"
            value={pasted}
            onChange={(e) => onPasted(e.target.value)}
            required
            className="h-9 w-full rounded-md border border-line-strong bg-surface px-2 font-mono text-sm"
          />
        </div>
      )}
    </fieldset>
  );
}
