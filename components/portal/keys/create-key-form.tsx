"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/auth/field";
import { Button } from "@/components/ui/button";
import { choicesOf, fieldAttrs, type FormValues, lengthHint } from "@/lib/contract/field-attrs";
import { createKeyBody } from "@/lib/contract/portal-inputs";
import type { KeyEnv } from "@/lib/shared/input-choices";
import { ErrorNote } from "../error-note";
import { PortalApiError } from "../portal-fetch";

export type CreateKeyInput = FormValues<typeof createKeyBody>;

const { name, env: envField } = createKeyBody.shape;
const ENV_TEXT: Record<KeyEnv, [label: string, hint: string]> = {
  test: ["Test", "svc_test_: demo data, Sandbox limits."],
  live: ["Live", "svc_live_: live data; needs the Pro or Enterprise plan and a verified e-mail."],
};

/** Name, Environment (Test, Live) and Create key; a refusal names the field and, for a missing subscription, links to the plan. */
export function CreateKeyForm({
  envs,
  onCreate,
  busy,
  error,
}: {
  /** The environments the member's role may create keys in (a Developer: test only). */
  envs: readonly ("test" | "live")[];
  onCreate: (input: CreateKeyInput) => void;
  busy: boolean;
  error: unknown;
}) {
  const [env, setEnv] = useState("test");
  const fieldError = (field: string) =>
    error instanceof PortalApiError && error.field === field && error.code === "invalid" ? error.message : undefined;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onCreate({ name: String(form.get("name") ?? ""), env });
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded-lg border border-line bg-surface p-4"
      aria-labelledby="create-key-title"
    >
      <h2 id="create-key-title" className="text-base font-semibold">
        Create a key
      </h2>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,22rem)_1fr]">
        <Field
          label="Name"
          name="name"
          {...fieldAttrs(name)}
          hint={`What uses this key, e.g. “CI runner” (${lengthHint(name)}).`}
          error={fieldError("name")}
        />
        <fieldset className="space-y-1.5">
          <legend className="mb-1 text-sm font-medium">Environment</legend>
          {choicesOf(envField)
            .filter((value) => envs.includes(value))
            .map((value) => [value, ...ENV_TEXT[value]] as const)
            .map(([value, label, hint]) => (
              <div key={value} className="flex items-start gap-2">
                <input
                  type="radio"
                  id={`env-${value}`}
                  name="env"
                  value={value}
                  checked={env === value}
                  onChange={() => setEnv(value)}
                  className="mt-1 accent-accent"
                  aria-describedby={`env-${value}-hint`}
                />
                <label htmlFor={`env-${value}`} className="text-sm">
                  {label}{" "}
                  <span id={`env-${value}-hint`} className="text-muted">
                    — {hint}
                  </span>
                </label>
              </div>
            ))}
        </fieldset>
      </div>
      {error && !fieldError("name") ? <ErrorNote error={error} /> : null}
      <Button type="submit" variant="primary" disabled={busy}>
        {busy ? "Creating…" : "Create key"}
      </Button>
    </form>
  );
}
