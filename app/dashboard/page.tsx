import type { Metadata } from "next";
import { ROLE_LABELS } from "@/lib/shared/roles";
import Link from "next/link";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere";
import { VerifyBanner } from "@/components/portal/verify-banner";
import { verificationLinkWaiting } from "@/lib/domain/user-credentials";
import { requirePortalUser } from "@/lib/auth/portal-user";
import { mailSettings } from "@/lib/mail/mailer";
import { accountOverview } from "@/lib/portal/overview";
import { portalDb } from "@/lib/server/portal-db";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

const QUICK_LINKS = [
  { href: "/dashboard/keys", label: "Create an API key", text: "Test keys work at once on demo data." },
  { href: "/dashboard/playground", label: "Try the API", text: "Call every endpoint from the browser." },
  { href: "/dashboard/usage", label: "See your usage", text: "Calls, quotas and every request in Logs." },
  { href: "/docs", label: "Read the reference", text: "Every route, field, error and limit." },
];

export default async function DashboardPage({ searchParams }: { searchParams: Promise<{ verify?: string }> }) {
  const user = await requirePortalUser({ from: "/dashboard" });
  const { verify } = await searchParams;
  const db = await portalDb();
  const account = await accountOverview(db, user.accountId);
  return (
    <div className="space-y-8">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
        <p className="text-sm text-muted">
          Signed in as <strong className="font-medium text-fg">{user.email}</strong>
        </p>
      </div>
      {!user.emailVerified ? (
        <VerifyBanner
          email={user.email}
          linkWaiting={await verificationLinkWaiting(db, user.email)}
          delivery={mailSettings().smtpUrl ? "smtp" : "log"}
          required={verify === "required"}
        />
      ) : null}
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <div className="rounded-lg border border-line bg-surface p-4">
          <dt className="text-xs font-medium text-muted">Account</dt>
          <dd className="mt-1 truncate font-medium">
            {account.name}{" "}
            <span className="text-sm font-normal text-muted">
              ({ROLE_LABELS[user.role]}
              {account.status === "inactive" ? ", deactivated" : ""})
            </span>
          </dd>
        </div>
        <div className="rounded-lg border border-line bg-surface p-4">
          <dt className="text-xs font-medium text-muted">Plan</dt>
          <dd className="mt-1 font-medium">
            {account.planA}{" "}
            <Link href="/dashboard/plan" className="ml-1 text-sm font-normal">
              Change plan
            </Link>
          </dd>
        </div>
        <div className="rounded-lg border border-line bg-surface p-4">
          <dt className="text-xs font-medium text-muted">E-mail</dt>
          <dd className="mt-1 font-medium">{user.emailVerified ? "Verified" : "Not verified yet"}</dd>
        </div>
      </dl>
      <section aria-labelledby="quick-heading" className="space-y-3">
        <h2 id="quick-heading" className="text-lg font-semibold">
          Get started
        </h2>
        <ol className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
          {QUICK_LINKS.map((q, i) => (
            <li key={q.href} className="flex gap-3 rounded-lg border border-line bg-surface p-4">
              <span
                aria-hidden="true"
                className="grid size-6 shrink-0 place-items-center rounded-full bg-accent-soft text-xs font-semibold"
              >
                {i + 1}
              </span>
              <div>
                <Link href={q.href} className="font-medium">
                  {q.label}
                </Link>
                <p className="text-sm text-muted">{q.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="sessions-heading" className="space-y-2">
        <h2 id="sessions-heading" className="text-xl font-semibold">
          Sessions
        </h2>
        <p className="text-sm text-muted">Signed in on a browser you no longer use? End every session at once.</p>
        <SignOutEverywhereButton />
      </section>
    </div>
  );
}
