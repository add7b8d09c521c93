"use client";

import { signOut } from "next-auth/react";

/**
 * Signs out and goes to the home page on the origin the browser is on. Auth.js's own redirect URL is built on the
 * server's idea of its origin, which under `next start` can be `localhost` while the browser is on 127.0.0.1 (or a
 * proxy's public host), so the browser is sent home with a relative navigation instead.
 */
export async function signOutHere(): Promise<void> {
  await signOut({ redirect: false });
  window.location.assign("/");
}
