"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Field } from "./field";
import { portalResult } from "@/components/portal/portal-fetch";
import { NEW_PASSWORD_FIELD } from "@/components/auth/new-password";

export function ResetPasswordForm({ token }: { token: string }) {
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    setPending(true);
    setError(null);
    const res = await portalResult<{ email: string }>("/api/portal/password-reset/complete", { token, password });
    setPending(false);
    if (!res.ok) return setError({ message: res.message, field: res.field });
    setDone(true);
  }

  if (done) {
    return (
      <p role="status" className="max-w-md rounded border border-ok/40 bg-ok-soft p-4 text-sm text-ok">
        Your password has been changed. <Link href="/signin">Sign in</Link> with the new one.
      </p>
    );
  }
  return (
    <form onSubmit={onSubmit} className="max-w-sm space-y-4" noValidate>
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        {...NEW_PASSWORD_FIELD}
        error={error?.field === "password" ? error.message : undefined}
      />
      {error && error.field !== "password" ? (
        <p role="alert" className="text-sm text-bad">
          {error.message} <Link href="/forgot-password">Ask for a new link</Link>
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {pending ? "Saving…" : "Set new password"}
      </button>
    </form>
  );
}
