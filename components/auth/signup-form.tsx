"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { portalResult } from "@/components/portal/portal-fetch";
import { signUpSentNote } from "@/lib/shared/verify-notice";
import { buttonClass } from "@/components/ui/button";
import { Field } from "./field";
import { TermsField } from "./terms-field";
import { NEW_PASSWORD_FIELD } from "@/components/auth/new-password";
import { fieldAttrs } from "@/lib/contract/field-attrs";
import { signUpBody } from "@/lib/contract/portal-inputs";

const EMAIL = fieldAttrs(signUpBody.shape.email);

type Errors = Partial<Record<"email" | "password" | "acceptTerms" | "form", string>>;

export function SignUpForm({ terms }: { terms: readonly string[] }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      acceptTerms: form.get("acceptTerms") === "on",
    };
    setPending(true);
    setErrors({});
    setSent(null);
    try {
      const res = await portalResult<{ delivery: "smtp" | "log" }>("/api/portal/signup", input);
      if (!res.ok) {
        // Every invalid field shows its own message; anything else goes above the button.
        const known = (f: string): f is "email" | "password" | "acceptTerms" =>
          f === "email" || f === "password" || f === "acceptTerms";
        const named = Object.entries(res.fields ?? (res.field ? { [res.field]: res.message } : {}));
        const shown: Errors = Object.fromEntries(named.filter(([f]) => known(f)));
        setErrors(Object.keys(shown).length > 0 ? shown : { form: res.message });
        return;
      }
      const signedIn = await signIn("credentials", { email: input.email, password: input.password, redirect: false });
      // The address already had an account (its mail says so), or sign-in is held back: the answer does not tell which.
      if (!signedIn || signedIn.error) {
        setSent(signUpSentNote(input.email, res.data.delivery));
        return;
      }
      router.push("/dashboard");
      router.refresh();
    } catch {
      setErrors({ form: "The portal could not be reached; check your connection and try again." });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="max-w-md space-y-4" noValidate>
      <Field label="E-mail" name="email" type="email" autoComplete="email" {...EMAIL} error={errors.email} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        {...NEW_PASSWORD_FIELD}
        error={errors.password}
      />
      <TermsField terms={terms} error={errors.acceptTerms} />
      {sent ? (
        <p role="status" className="text-sm">
          {sent}
        </p>
      ) : null}
      {errors.form ? (
        <p role="alert" className="text-sm text-bad">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" disabled={pending} className={buttonClass("primary", "md", "w-full")}>
        {pending ? "Creating account…" : "Create account"}
      </button>
    </form>
  );
}
