"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { KeyListItem } from "@/lib/domain/keys";
import type { WebhookView } from "@/lib/domain/webhooks";
import { Button } from "@/components/ui/button";
import { Drawer } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PlusIcon } from "@/components/ui/icons";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";
import { SecretOnce } from "../secret-once";
import { RegisterForm, type RegisterInput } from "./register-form";
import { WebhookCard } from "./webhook-card";

const KEY = ["portal", "webhooks"];

/** Registering an endpoint: the mutation, the drawer's state and the signing secret it answered (shown once). */
function useRegister() {
  const client = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const register = useMutation({
    mutationFn: (input: RegisterInput) =>
      portalFetch<WebhookView & { signingSecret: string }, RegisterInput>("/api/portal/webhooks", {
        method: "POST",
        body: input,
      }),
    onSuccess: (w) => {
      setAdding(false);
      setSecret(w.signingSecret);
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  return { secret, setSecret, adding, setAdding, register };
}

/** A new webhook's signing secret, shown once. */
function SigningSecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <SecretOnce
      label="Your webhook's signing secret"
      what="signing secret"
      secret={secret}
      onDone={onDone}
      note="Copy this secret now: it is shown only once. Verify each delivery's webhook-signature with it (Standard Webhooks)."
    />
  );
}

/** The webhooks page's live part: the endpoints first; "Add endpoint" opens the form in a drawer (inline while there are none). */
export function WebhooksPanel({
  initial,
  keys,
  events,
  canManage,
  canRegister,
}: {
  initial: WebhookView[];
  keys: KeyListItem[];
  events: readonly string[];
  canManage: boolean;
  canRegister: boolean;
}) {
  const list = useQuery({
    queryKey: KEY,
    queryFn: () => portalFetch<WebhookView[]>("/api/portal/webhooks"),
    initialData: initial,
  });
  const { secret, setSecret, adding, setAdding, register } = useRegister();
  const mayAdd = canManage && canRegister;
  const form = (
    <RegisterForm
      keys={keys}
      events={events}
      busy={register.isPending}
      error={register.error}
      onRegister={(i) => register.mutate(i)}
    />
  );
  return (
    <div className="space-y-6">
      {secret ? <SigningSecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      {!canManage ? (
        <p className="text-sm text-muted">Only the account&apos;s owner can register or change webhooks.</p>
      ) : null}
      <section aria-labelledby="webhooks-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="webhooks-title" className="text-lg font-semibold">
            Endpoints
          </h2>
          {mayAdd && list.data.length > 0 ? (
            <Button
              variant="primary"
              onClick={() => {
                register.reset();
                setAdding(true);
              }}
            >
              <PlusIcon />
              Add endpoint
            </Button>
          ) : null}
        </div>
        {list.isError ? <ErrorNote error={list.error} /> : null}
        {list.data.length === 0 ? (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
            <EmptyState title="No webhooks yet.">
              Register an endpoint to get IV-rank, IV-change and no-trade alerts as signed POST requests. Each delivery
              is retried for about 28 hours and listed here with every attempt.
            </EmptyState>
            {mayAdd ? <div className="rounded-lg border border-line bg-surface p-4">{form}</div> : null}
          </div>
        ) : (
          <ul className="space-y-4">
            {list.data.map((w) => (
              <WebhookCard key={w.webhookId} w={w} canManage={canManage} />
            ))}
          </ul>
        )}
      </section>
      <Drawer open={adding && list.data.length > 0} onOpenChange={setAdding} title="Add endpoint">
        {form}
      </Drawer>
    </div>
  );
}
