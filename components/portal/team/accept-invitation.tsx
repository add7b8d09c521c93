"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Field } from "@/components/auth/field";
import { TermsField } from "@/components/auth/terms-field";
import { buttonClass } from "@/components/ui/button";
import type { AcceptInvitationBody } from "@/lib/portal/schemas";
import { portalResult } from "../portal-fetch";
import { NEW_PASSWORD_FIELD } from "@/components/auth/new-password";

type Errors = Partial<Record<"password" | "acceptTerms" | "form", string>>;

/** Accept invitation: a new address chooses a password and accepts the terms, then is signed in; a known one just joins. */
export function AcceptInvitation({
  token,
  email,
  newUser,
  terms,
}: {
  token: string;
  email: string;
  newUser: boolean;
  terms: readonly string[];
}) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body: AcceptInvitationBody = newUser
      ? {
          token,
          name: String(form.get("name") ?? ""),
          password: String(form.get("password") ?? ""),
          acceptTerms: form.get("acceptTerms") === "on",
        }
      : { token };
    setPending(true);
    setErrors({});
    try {
      const res = await portalResult("/api/portal/invitations/accept", body);
      if (!res.ok) {
        const field = res.field === "password" || res.field === "acceptTerms" ? res.field : "form";
        setErrors({ [field]: res.message });
        return;
      }
      if (newUser) await signIn("credentials", { email, password: body.password, redirect: false });
      router.push("/dashboard");
      router.refresh();
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      {newUser ? (
        <>
          <Field label="Name" name="name" autoComplete="name" hint="Optional: how your team sees you." />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            {...NEW_PASSWORD_FIELD}
            error={errors.password}
          />
          <TermsField terms={terms} error={errors.acceptTerms} />
        </>
      ) : null}
      {errors.form ? (
        <p role="alert" className="text-sm text-bad">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={buttonClass("primary", "md")}>
        {pending ? "Joining…" : "Accept invitation"}
      </button>
    </form>
  );
}
