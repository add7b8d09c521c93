import type { Metadata } from "next";
import Link from "next/link";
import { DomainError } from "@/lib/domain/errors";
import { verifyEmailByToken } from "@/lib/domain/user-credentials";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Verify e-mail", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/** Opening the link from the mail verifies the address (the token is used once). */
async function verify(token: string): Promise<{ ok: true; email: string } | { ok: false; message: string }> {
  try {
    return { ok: true, ...(await verifyEmailByToken(await portalDb(), token)) };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, message: err.message };
    throw err;
  }
}

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const result = token ? await verify(token) : null;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10 sm:px-6 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">
        {result?.ok ? "E-mail address verified" : "Verify your e-mail address"}
      </h1>
      {result === null ? (
        <p className="max-w-prose">
          Open the link in the verification mail we sent you. To get a new one, use{" "}
          <strong>Resend verification mail</strong> on your <Link href="/dashboard">dashboard</Link>.
        </p>
      ) : result.ok ? (
        <p role="status" className="max-w-prose rounded border border-ok/40 bg-ok-soft p-4 text-ok">
          <strong>{result.email}</strong> is verified. <Link href="/dashboard">Go to your dashboard</Link>
        </p>
      ) : (
        <p role="alert" className="max-w-prose rounded border border-bad/40 bg-bad-soft p-4 text-bad">
          {result.message} <Link href="/dashboard">Dashboard</Link>
        </p>
      )}
    </div>
  );
}
