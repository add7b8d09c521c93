"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ErrorNote } from "../error-note";
import type { FormValues } from "@/lib/contract/field-attrs";
import type { planBody } from "@/lib/contract/portal-inputs";
import { portalFetch } from "../portal-fetch";

interface PlanChoice {
  id: string;
  nameA: string;
  nameB: string;
  liveKeyStyles: string[];
}

function admits(p: PlanChoice): string {
  if (p.liveKeyStyles.includes("live")) return "test, svc_live_ and svc_sk_live_ keys";
  if (p.liveKeyStyles.includes("sk")) return "test and svc_sk_live_ keys";
  return "test keys only";
}

/** Self-serve plan change: no payment is taken (collection is out of scope); every key follows within seconds. */
export function PlanChange({ plans, current }: { plans: PlanChoice[]; current: string }) {
  const router = useRouter();
  const [choice, setChoice] = useState(current);
  const change = useMutation({
    mutationFn: (plan: string) =>
      portalFetch<{ plan: string }, FormValues<typeof planBody>>("/api/portal/plan", { method: "PUT", body: { plan } }),
    onSuccess: () => router.refresh(),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    change.mutate(choice);
  }
  return (
    <form onSubmit={submit} className="space-y-4 rounded border border-line p-4" aria-labelledby="plan-change-title">
      <h2 id="plan-change-title" className="text-xl font-semibold">
        Change plan
      </h2>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Plan</legend>
        {plans.map((p) => (
          <div key={p.id} className="flex items-start gap-2">
            <input
              type="radio"
              id={`plan-${p.id}`}
              name="plan"
              value={p.id}
              checked={choice === p.id}
              onChange={() => setChoice(p.id)}
              className="mt-1"
            />
            <label htmlFor={`plan-${p.id}`}>
              {p.nameA}{" "}
              <span className="text-muted">
                — {admits(p)}
                {p.id === current ? " (current)" : ""}
              </span>
            </label>
          </div>
        ))}
      </fieldset>
      <p className="text-sm text-muted">
        The change takes effect at once on every key of the account: each server re-reads a key&apos;s plan within 5
        seconds. Live keys the new plan does not admit are refused with 403 <code>subscription_required</code> until you
        change back.
      </p>
      <ErrorNote error={change.error} />
      {change.isSuccess ? (
        <p role="status" className="text-sm text-ok">
          Plan changed to {plans.find((p) => p.id === change.data.plan)?.nameA}.
        </p>
      ) : null}
      <button
        type="submit"
        disabled={change.isPending || choice === current}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {change.isPending ? "Changing…" : "Change plan"}
      </button>
    </form>
  );
}
