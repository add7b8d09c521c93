import type { Metadata } from "next";
import Link from "next/link";
import { SignUpForm } from "@/components/auth/signup-form";
import { TERMS_POINTS } from "@/lib/domain/terms";

export const metadata: Metadata = { title: "Sign up" };

export default function SignUpPage() {
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create your developer account</h1>
      <p className="max-w-2xl text-muted">Sandbox (Free Sandbox) plan: test keys on demo data, no card needed.</p>
      <SignUpForm terms={TERMS_POINTS} />
      <p className="text-sm">
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </div>
  );
}
