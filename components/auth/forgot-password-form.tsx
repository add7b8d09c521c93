"use client";

import { useState, type FormEvent } from "react";
import { Field } from "./field";
import { portalResult } from "@/components/portal/portal-fetch";

export function ForgotPasswordForm() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; delivery: "smtp" | "log" } | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    setPending(true);
    setError(null);
    const res = await portalResult<{ delivery: "smtp" | "log" }>("/api/portal/password-reset", { email });
    setPending(false);
    if (!res.ok) return setError(res.message);
    setSent({ email, delivery: res.data.delivery });
  }

  if (sent) {
    return (
      <div role="status" className="max-w-md space-y-2 rounded border border-ok/40 bg-ok-soft p-4 text-sm text-ok">
        <p>
          If an account exists for <strong>{sent.email}</strong>, a link to choose a new password is on its way. It
          works once, for 1 hour.
        </p>
        {sent.delivery === "log" ? (
          <p>This server has no mail server configured (SMTP_URL): the link was written to the server log instead.</p>
        ) : null}
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="max-w-sm space-y-4" noValidate>
      <Field label="E-mail" name="email" type="email" autoComplete="email" required error={error ?? undefined} />
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {pending ? "Sending…" : "Send reset link"}
      </button>
    </form>
  );
}
