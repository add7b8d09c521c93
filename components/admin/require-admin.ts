/** Admin pages: signed out → sign-in (coming back here); signed in without the admin flag → 404 (the page is not theirs). */
import "server-only";
import { notFound } from "next/navigation";
import { requirePortalUser } from "@/lib/auth/portal-user";
import type { PortalUser } from "@/lib/portal/types";

export async function requireAdmin(from?: string): Promise<PortalUser> {
  const user = await requirePortalUser({ from });
  if (!user.isAdmin) notFound();
  return user;
}
