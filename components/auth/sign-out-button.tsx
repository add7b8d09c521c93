"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => void signOut({ redirectTo: "/" })}
      className="rounded border border-slate-300 px-3 py-1 text-sm text-white hover:bg-slate-700 focus-visible:outline-white"
    >
      Sign out
    </button>
  );
}
