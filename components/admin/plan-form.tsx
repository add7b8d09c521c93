"use client";

import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/portal/confirm-dialog";
import { ErrorNote } from "@/components/portal/error-note";
import { Button } from "@/components/ui/button";
import { fieldMessage, SelectField } from "./fields";
import { useAdminPost } from "./use-admin-post";

/** `Plan` choice and `Change plan` for one account, confirmed in a dialog naming the account and both plans. */
export function PlanForm({
  accountId,
  accountName,
  plan,
  plans,
}: {
  accountId: string;
  accountName: string;
  plan: string;
  plans: readonly string[];
}) {
  const id = useId();
  const [value, setValue] = useState(plan);
  const { busy, error, setError, post } = useAdminPost();
  const [done, setDone] = useState(false);
  const [asking, setAsking] = useState(false);
  async function submit() {
    setDone(false);
    await post(`/api/admin/accounts/${accountId}/plan`, { plan: value }, () => {
      setDone(true);
      setAsking(false);
    });
  }
  const planError = fieldMessage(error, "plan");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setAsking(true);
      }}
      noValidate
      className="space-y-2"
    >
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
      {error && !planError && !asking ? <ErrorNote error={error} /> : null}
      <ConfirmDialog
        open={asking}
        title={`Change the plan of ${accountName}?`}
        confirmLabel="Change plan"
        busy={busy}
        onConfirm={submit}
        onCancel={() => setAsking(false)}
      >
        <p className="text-sm">
          From {plan} to {value}: every key of the account follows within seconds (limits, features, and whether its
          live keys are admitted). No payment is taken.
        </p>
        {error ? <ErrorNote error={error} /> : null}
      </ConfirmDialog>
    </form>
  );
}
