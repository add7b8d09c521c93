import type { Metadata } from "next";
import Link from "next/link";
import { SignInForm } from "@/components/auth/signin-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Sign in</h1>
      <SignInForm callbackUrl={callbackUrl} />
      <p className="text-sm">No account yet? <Link href="/signup">Sign up</Link></p>
    </div>
  );
}
