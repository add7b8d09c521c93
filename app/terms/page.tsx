import type { Metadata } from "next";
import Link from "next/link";
import { sameOriginPath } from "@/lib/security/redirect";
import { AcceptTermsButton } from "@/components/auth/accept-terms";
import { currentPortalSession } from "@/lib/auth/portal-user";
import { TERMS_POINTS, TERMS_VERSION, termsGateReason } from "@/lib/domain/terms";

export const metadata: Metadata = { title: "Terms of use" };
export const dynamic = "force-dynamic";

export default async function TermsPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const session = await currentPortalSession();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Terms of use</h1>
      <p className="text-sm text-muted">Version {TERMS_VERSION}</p>
      <ol className="list-decimal space-y-2 pl-5">
        {TERMS_POINTS.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ol>
      {session && !session.termsCurrent ? (
        <section aria-labelledby="accept-heading" className="space-y-2 rounded border border-warn/40 bg-warn-soft p-4">
          <h2 id="accept-heading" className="font-semibold">
            Accept the current terms of use to continue
          </h2>
          <p className="text-sm">{termsGateReason(session.termsAccepted)}</p>
          <AcceptTermsButton version={TERMS_VERSION} callbackUrl={sameOriginPath(callbackUrl)} />
        </section>
      ) : session ? (
        <p className="text-sm">
          You accepted this version. <Link href="/dashboard">Dashboard</Link>
        </p>
      ) : (
        <p className="text-sm">
          You accept these terms when you <Link href="/signup">sign up</Link>.
        </p>
      )}
    </div>
  );
}
