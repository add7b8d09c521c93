"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/auth/field";
import { ErrorNote } from "../error-note";
import { PortalApiError } from "../portal-fetch";

/** Name, Environment (Test, Live) and Create key; a refusal names the field and, for a missing subscription, links to the plan. */
export function CreateKeyForm({
  onCreate,
  busy,
  error,
}: {
  onCreate: (input: { name: string; env: string }) => void;
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
      className="space-y-4 rounded border border-slate-200 p-4"
      aria-labelledby="create-key-title"
    >
      <h2 id="create-key-title" className="text-xl font-semibold">
        Create a key
      </h2>
      <Field
        label="Name"
        name="name"
        maxLength={80}
        required
        hint="What uses this key, e.g. “CI runner” (1–80 characters)."
        error={fieldError("name")}
      />
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-slate-800">Environment</legend>
        {[
          ["test", "Test", "svc_test_: demo data, Sandbox limits."],
          ["live", "Live", "svc_live_: live data; needs the Pro or Enterprise plan and a verified e-mail."],
        ].map(([value, label, hint]) => (
          <div key={value} className="flex items-start gap-2">
            <input
              type="radio"
              id={`env-${value}`}
              name="env"
              value={value}
              checked={env === value}
              onChange={() => setEnv(value)}
              className="mt-1"
              aria-describedby={`env-${value}-hint`}
            />
            <label htmlFor={`env-${value}`}>
              {label}{" "}
              <span id={`env-${value}-hint`} className="text-sm text-slate-600">
                — {hint}
              </span>
            </label>
          </div>
        ))}
      </fieldset>
      {error && !fieldError("name") ? <ErrorNote error={error} /> : null}
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {busy ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}
