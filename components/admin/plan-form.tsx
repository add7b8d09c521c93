"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";
import { Button } from "@/components/ui/button";
import { fieldMessage, SelectField } from "./fields";

/** `Plan` choice and `Change plan` for one account. */
export function PlanForm({ accountId, plan, plans }: { accountId: string; plan: string; plans: readonly string[] }) {
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState(plan);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(false);
    setBusy(true);
    try {
      await portalFetch(`/api/admin/accounts/${accountId}/plan`, { method: "POST", body: { plan: value } });
      setDone(true);
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const planError = fieldMessage(error, "plan");
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <div className="flex flex-wrap items-end gap-2">
        <SelectField
          id={`${id}-p`}
          label="Plan"
          className="w-48"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          options={plans}
          error={planError}
        />
        <Button type="submit" disabled={busy}>
          Change plan
        </Button>
      </div>
      {done ? (
        <p role="status" className="text-sm text-ok">
          Plan changed.
        </p>
      ) : null}
      {error && !planError ? <ErrorNote error={error} /> : null}
    </form>
  );
}
