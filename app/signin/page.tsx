import type { Metadata } from "next";
import Link from "next/link";
import { sameOriginPath } from "@/lib/security/redirect";
import { SignInForm } from "@/components/auth/signin-form";
import { githubConfigured } from "@/lib/auth/settings";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; deleted?: string }>;
}) {
  const { callbackUrl, error, deleted } = await searchParams;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      {error && error !== "CredentialsSignin" ? (
        <p role="alert" className="max-w-sm text-sm text-bad">
          {error === "OAuthAccountNotLinked"
            ? "This e-mail already has an account: sign in with its password."
            : "Sign-in did not complete; try again."}
        </p>
      ) : null}
      {deleted === "1" ? (
        <p role="status" className="max-w-sm text-sm">
          The account was deleted: its API keys no longer work and its members are signed out.
        </p>
      ) : null}
      <SignInForm callbackUrl={sameOriginPath(callbackUrl)} github={githubConfigured()} />
      <p className="text-sm">
        No account yet? <Link href="/signup">Sign up</Link>
      </p>
    </div>
  );
}
