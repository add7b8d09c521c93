/** The signed-in person for pages and portal routes, read fresh from the database on every request. */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { auth } from "./config";
import { loadPortalSession } from "../domain/users";
import { portalDb } from "../server/portal-db";
import type { PortalUser } from "../portal/types";

export interface PortalSession {
  user: PortalUser;
  /** False when the user has not accepted the current TERMS_VERSION (pages send them to /terms first). */
  termsCurrent: boolean;
  /** The version they last accepted; null when they never did (a new account not made by the sign-up form). */
  termsAccepted: number | null;
}

/** Once per render: the header, the dashboard layout and the page share one lookup. */
export const currentPortalSession = cache(async (): Promise<PortalSession | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const authAt = (session as { authAt?: unknown }).authAt;
  return loadPortalSession(await portalDb(), id, typeof authAt === "number" ? authAt : undefined);
});

export async function currentPortalUser(): Promise<PortalUser | null> {
  return (await currentPortalSession())?.user ?? null;
}

/** Pages: the signed-in user, or a redirect to sign-in (or to /terms, or to the dashboard when something needed is missing) that comes back here. */
export async function requirePortalUser(
  opts: { from?: string; verified?: boolean; admin?: boolean } = {},
): Promise<PortalUser> {
  // proxy.ts passes the requested path, so a layout's check comes back to the page that was asked for.
  const from = encodeURIComponent(opts.from ?? (await headers()).get("x-portal-path") ?? "/dashboard");
  const session = await currentPortalSession();
  if (!session) redirect(`/signin?callbackUrl=${from}`);
  if (!session.termsCurrent) redirect(`/terms?callbackUrl=${from}`);
  const { user } = session;
  if (opts.admin && !user.isAdmin) redirect("/dashboard");
  if (opts.verified && !user.emailVerified) redirect("/dashboard?verify=required");
  return user;
}
