"use client";

import type { FormEvent } from "react";
import { Field } from "@/components/auth/field";
import { RequiredMark } from "@/components/ui/required-mark";
import { choicesOf, fieldAttrs, type FormValues, lengthHint } from "@/lib/contract/field-attrs";
import { accessRequestBody } from "@/lib/contract/portal-inputs";
import { ErrorNote } from "../error-note";
import { PortalApiError } from "../portal-fetch";

const { company, useCase, expectedVolume } = accessRequestBody.shape;

/** The use case, with its length rule from the schema, its hint and the portal's message when refused. */
function UseCaseField({ error }: { error?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor="useCase" className="block text-sm font-medium text-fg">
        Use case
        <RequiredMark />
      </label>
      <textarea
        id="useCase"
        name="useCase"
        rows={4}
        {...fieldAttrs(useCase)}
        aria-describedby={`useCase-hint${error ? " useCase-error" : ""}`}
        aria-invalid={error ? true : undefined}
        className="block w-full rounded border border-line-strong px-3 py-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-focus"
      />
      <p id="useCase-hint" className="text-xs text-muted">
        What you will build and who sees the output ({lengthHint(useCase)}). Output may not be resold or redistributed.
      </p>
      {error ? (
        <p id="useCase-error" className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The expected volume, one of the schema's choices under its label, and the portal's message when refused. */
function VolumeField({ volumes, error }: { volumes: Record<string, string>; error?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor="expectedVolume" className="block text-sm font-medium text-fg">
        Expected volume
        <RequiredMark />
      </label>
      <select
        id="expectedVolume"
        name="expectedVolume"
        defaultValue=""
        {...fieldAttrs(expectedVolume)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "expectedVolume-error" : undefined}
        className="block rounded border border-line-strong px-3 py-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-focus"
      >
        <option value="" disabled>
          Choose…
        </option>
        {choicesOf(expectedVolume).map((value) => (
          <option key={value} value={value}>
            {volumes[value] ?? value}
          </option>
        ))}
      </select>
      {error ? (
        <p id="expectedVolume-error" className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The use-case form: company, use case and expected volume. */
export function AccessForm({
  volumes,
  onSubmit,
  busy,
  error,
}: {
  volumes: Record<string, string>;
  onSubmit: (input: FormValues<typeof accessRequestBody>) => void;
  busy: boolean;
  error: unknown;
}) {
  const fieldError = (field: string) =>
    error instanceof PortalApiError && error.field === field && error.code === "invalid" ? error.message : undefined;
  const useCaseError = fieldError("useCase");
  const volumeError = fieldError("expectedVolume");
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const f = new FormData(event.currentTarget);
    onSubmit({
      company: String(f.get("company") ?? ""),
      useCase: String(f.get("useCase") ?? ""),
      expectedVolume: String(f.get("expectedVolume") ?? ""),
    });
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-4 rounded border border-line p-4"
      aria-labelledby="access-form-title"
    >
      <h2 id="access-form-title" className="text-xl font-semibold">
        Request an svc_sk_live_ key
      </h2>
      <Field
        label="Company"
        name="company"
        {...fieldAttrs(company)}
        autoComplete="organization"
        error={fieldError("company")}
      />
      <UseCaseField error={useCaseError} />
      <VolumeField volumes={volumes} error={volumeError} />
      {error && !fieldError("company") && !useCaseError && !volumeError ? <ErrorNote error={error} /> : null}
      <button
        type="submit"
        disabled={busy}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {busy ? "Sending…" : "Request access"}
      </button>
    </form>
  );
}
