"use client";

import { signIn } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { waitMessage } from "@/lib/shared/wait-message";
import { sameOriginPath } from "@/lib/security/redirect";
import { Field } from "./field";

/** Only same-site paths are followed after sign-in. */
export function safeCallback(url: string | null | undefined): string {
  return sameOriginPath(url, typeof window === "undefined" ? undefined : window.location.origin);
}

/** What a deactivated account's person reads after the right password (lib/auth/config.ts, `account_deactivated`). */
export const DEACTIVATED_MESSAGE =
  "This account is deactivated, so you cannot sign in. Its keys and webhooks are switched off; contact support to reactivate it.";

/** The message for Auth.js's error code: `rate_limited:<seconds>` carries the time to wait. */
export function signInMessage(code: string | undefined): string {
  const throttled = /^rate_limited:(\d+)$/.exec(code ?? "");
  if (throttled) return waitMessage(Number(throttled[1]));
  if (code === "account_deactivated") return DEACTIVATED_MESSAGE;
  return "Wrong e-mail or password.";
}

export function SignInForm({ callbackUrl, github }: { callbackUrl?: string; github?: boolean }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", {
        email: form.get("email"),
        password: form.get("password"),
        redirect: false,
      });
      if (!result || result.error) {
        setError(signInMessage(result?.code));
        return;
      }
      router.push(safeCallback(callbackUrl));
      router.refresh();
    } catch {
      setError("The portal could not be reached; check your connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="max-w-sm space-y-6">
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        {error ? (
          <p role="alert" className="text-sm text-bad">
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="submit"
            disabled={pending}
            className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
          >
            {pending ? "Signing in…" : "Sign in"}
          </button>
          <Link href="/forgot-password" className="text-sm">
            Forgot your password?
          </Link>
        </div>
      </form>
      {github ? (
        <button
          type="button"
          onClick={() => void signIn("github", { redirectTo: safeCallback(callbackUrl) })}
          className="w-full rounded border border-line-strong px-4 py-2 font-medium text-fg hover:bg-hover"
        >
          Continue with GitHub
        </button>
      ) : null}
    </div>
  );
}
