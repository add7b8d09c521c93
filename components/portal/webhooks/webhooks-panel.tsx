"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { KeyListItem } from "@/lib/domain/keys";
import type { WebhookView } from "@/lib/domain/webhooks";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { RegisterForm, type RegisterInput } from "./register-form";
import { WebhookCard } from "./webhook-card";

const KEY = ["portal", "webhooks"];

/** The webhooks page's live part: register (secret shown once) and the list. */
export function WebhooksPanel({
  initial,
  keys,
  canManage,
  canRegister,
}: {
  initial: WebhookView[];
  keys: KeyListItem[];
  canManage: boolean;
  canRegister: boolean;
}) {
  const client = useQueryClient();
  const list = useQuery({
    queryKey: KEY,
    queryFn: () => portalFetch<WebhookView[]>("/api/portal/webhooks"),
    initialData: initial,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const register = useMutation({
    mutationFn: (input: RegisterInput) =>
      portalFetch<WebhookView & { signingSecret: string }>("/api/portal/webhooks", { method: "POST", body: input }),
    onSuccess: (w) => {
      setSecret(w.signingSecret);
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  return (
    <div className="space-y-6">
      {secret ? (
        <SecretOnce
          label="Your webhook's signing secret"
          what="signing secret"
          secret={secret}
          onDone={() => setSecret(null)}
          note="Copy this secret now: it is shown only once. Verify each delivery's webhook-signature with it (Standard Webhooks)."
        />
      ) : null}
      {canManage && canRegister ? (
        <RegisterForm
          keys={keys}
          busy={register.isPending}
          error={register.error}
          onRegister={(i) => register.mutate(i)}
        />
      ) : null}
      {!canManage ? <p className="text-muted">Only the account&apos;s owner can register or change webhooks.</p> : null}
      <section aria-labelledby="webhooks-title" className="space-y-2">
        <h2 id="webhooks-title" className="text-xl font-semibold">
          Webhooks
        </h2>
        {list.isError ? <ErrorNote error={list.error} /> : null}
        {list.data.length === 0 ? (
          <p className="text-muted">No webhooks yet.</p>
        ) : (
          <ul className="space-y-4">
            {list.data.map((w) => (
              <WebhookCard key={w.webhookId} w={w} canManage={canManage} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
