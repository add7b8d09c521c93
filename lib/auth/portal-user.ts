/** The signed-in person for pages and portal routes, read fresh from the database on every request. */
import { redirect } from "next/navigation";
import { auth } from "./config";
import { loadPortalUser } from "../domain/users";
import { portalDb } from "../server/portal-db";
import type { PortalUser } from "../portal/types";

export async function currentPortalUser(): Promise<PortalUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return loadPortalUser(await portalDb(), id);
}

/** Pages: the signed-in user, or a redirect to sign-in that comes back here (or to the dashboard when signed-in lacks what is needed). */
export async function requirePortalUser(opts: { from?: string; verified?: boolean; admin?: boolean } = {}): Promise<PortalUser> {
  const user = await currentPortalUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(opts.from ?? "/dashboard")}`);
  if (opts.admin && !user.isAdmin) redirect("/dashboard");
  if (opts.verified && !user.emailVerified) redirect("/dashboard?verify=required");
  return user;
}
