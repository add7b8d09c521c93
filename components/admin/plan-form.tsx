"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";

/** `Plan` choice and `Change plan` for one account. */
export function PlanForm({ accountId, plan, plans }: { accountId: string; plan: string; plans: readonly string[] }) {
  const router = useRouter();
  const id = useId();
  const [value, setValue] = useState(plan);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    setDone(false);
    try {
      await portalFetch(`/api/admin/accounts/${accountId}/plan`, { method: "POST", body: { plan: value } });
      setDone(true);
      router.refresh();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <div className="text-sm font-medium">
        <label htmlFor={`${id}-p`}>Plan</label>
        <select
          id={`${id}-p`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="mt-1 block rounded border border-slate-400 px-2 py-1.5"
        >
          {plans.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
      <button
        type="submit"
        className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        Change plan
      </button>
      {done ? (
        <p role="status" className="text-sm text-green-800">
          Plan changed.
        </p>
      ) : null}
      <ErrorNote error={error} />
    </form>
  );
}
