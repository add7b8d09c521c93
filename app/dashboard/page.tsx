import type { Metadata } from "next";
import Link from "next/link";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere";
import { ResendVerificationButton } from "@/components/portal/resend-verification";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { mailSettings } from "@/lib/mail/mailer";
import { accountOverview } from "@/lib/portal/overview";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

const QUICK_LINKS = [
  { href: "/dashboard/keys", label: "Create an API key", text: "Test keys work at once on demo data." },
  { href: "/dashboard/playground", label: "Try the API", text: "Call every endpoint from the browser." },
  { href: "/dashboard/usage", label: "See your usage", text: "Calls, quotas and the request log." },
  { href: "/docs", label: "Read the reference", text: "Every route, field, error and limit." },
];

export default async function DashboardPage({ searchParams }: { searchParams: Promise<{ verify?: string }> }) {
  const user = await requirePortalUser({ from: "/dashboard" });
  const { verify } = await searchParams;
  const account = await accountOverview(await portalDb(), user.accountId);
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      {!user.emailVerified ? (
        <section
          aria-labelledby="verify-heading"
          className="space-y-2 rounded border border-amber-600 bg-amber-50 p-4 text-amber-950"
        >
          <h2 id="verify-heading" className="font-semibold">
            Verify your e-mail address
          </h2>
          {verify === "required" ? (
            <p role="alert" className="text-sm font-medium">
              The page you opened needs a verified e-mail address.
            </p>
          ) : null}
          <p className="text-sm">
            We sent a link to <strong>{user.email}</strong>. Live keys and access requests need a verified address.
            {mailSettings().smtpUrl
              ? null
              : " This server has no mail server configured (SMTP_URL), so the link is in the server log."}
          </p>
          <ResendVerificationButton />
        </section>
      ) : null}
      <p>
        Signed in as <strong>{user.email}</strong>
      </p>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">Account</dt>
        <dd>
          {account.name}{" "}
          <span className="text-sm text-slate-600">
            ({user.role}
            {account.status === "inactive" ? ", deactivated" : ""})
          </span>
        </dd>
        <dt className="font-medium">Plan</dt>
        <dd>
          {account.planA} <span className="text-sm text-slate-600">(Family B: {account.planB})</span> ·{" "}
          <Link href="/dashboard/plan">Change plan</Link>
        </dd>
        <dt className="font-medium">E-mail</dt>
        <dd>{user.emailVerified ? "Verified" : "Not verified yet"}</dd>
      </dl>
      <section aria-labelledby="quick-heading" className="space-y-3">
        <h2 id="quick-heading" className="text-xl font-semibold">
          Quick links
        </h2>
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {QUICK_LINKS.map((q) => (
            <li key={q.href} className="rounded border border-slate-300 p-3">
              <Link href={q.href} className="font-medium">
                {q.label}
              </Link>
              <p className="text-sm text-slate-700">{q.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="sessions-heading" className="space-y-2">
        <h2 id="sessions-heading" className="text-xl font-semibold">
          Sessions
        </h2>
        <p className="text-sm text-slate-700">Signed in on a browser you no longer use? End every session at once.</p>
        <SignOutEverywhereButton />
      </section>
    </div>
  );
}
