import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="max-w-prose">
        Enter the e-mail address you signed up with and we will send a link to choose a new password.
      </p>
      <ForgotPasswordForm />
      <p className="text-sm">
        <Link href="/signin">Back to sign in</Link>
      </p>
    </div>
  );
}
