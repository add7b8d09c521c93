"use server";
/** Server actions for the signed-in person (Next checks their origin): ending every session of the user. */
import { headers } from "next/headers";
import { recordAudit } from "../domain/audit";
import { endUserSessions } from "../domain/sessions";
import { requestIdFrom } from "../api/request-id";
import { clientAddressFrom } from "../security/client-address";
import { portalDb } from "../server/portal-db";
import { auth, signOut } from "./config";

/** "Sign out everywhere": every session of this user ends (other browsers get 401 on their next request), then this one. */
export async function signOutEverywhere(): Promise<void> {
  const session = await auth();
  const userId = session?.user?.id;
  if (userId) {
    const db = await portalDb();
    const h = await headers();
    const ended = await endUserSessions(db, userId, "sign_out_everywhere");
    await recordAudit(db, {
      actor: {
        type: "user",
        id: userId,
        requestId: requestIdFrom(h),
        ip: clientAddressFrom(h),
        userAgent: h.get("user-agent") ?? undefined,
      },
      action: "auth.signout_everywhere",
      target: `user:${userId}`,
      after: { sessionsEnded: ended },
    });
  }
  await signOut({ redirectTo: "/signin" });
}
