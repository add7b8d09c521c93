import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitation } from "@/components/portal/team/accept-invitation";
import { currentPortalUser } from "@/lib/auth/portal-user";
import { describeInvitation } from "@/lib/domain/invitations";
import { TERMS_POINTS } from "@/lib/domain/terms";
import { portalDb } from "@/lib/server/portal-db";
import { ROLE_LABELS } from "@/lib/shared/roles";

export const metadata: Metadata = { title: "Join an account" };
export const dynamic = "force-dynamic";

/** An invitation link: who invites whom to what; a new address signs up on the way, a known one signs in first. */
export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const [invitation, user] = await Promise.all([describeInvitation(await portalDb(), token), currentPortalUser()]);
  const here = `/invite?token=${encodeURIComponent(token)}`;
  return (
    <div className="mx-auto w-full max-w-xl space-y-6 px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Join an account</h1>
      {!invitation ? (
        <p role="alert">
          This invitation link is not valid: it was used, withdrawn or expired (links work once, for 7 days). Ask the
          person who invited you for a new one.
        </p>
      ) : (
        <>
          <p className="[overflow-wrap:anywhere]">
            You are invited to join <strong>{invitation.accountName}</strong> as{" "}
            <strong>{ROLE_LABELS[invitation.role]}</strong> with the address <strong>{invitation.email}</strong>.
          </p>
          {invitation.userExists && user?.email !== invitation.email ? (
            <p>
              {user ? `You are signed in as ${user.email}. ` : ""}
              <Link href={`/signin?callbackUrl=${encodeURIComponent(here)}`}>Sign in as {invitation.email}</Link> to
              accept.
            </p>
          ) : (
            <AcceptInvitation
              token={token}
              email={invitation.email}
              newUser={!invitation.userExists}
              terms={TERMS_POINTS}
            />
          )}
        </>
      )}
    </div>
  );
}
