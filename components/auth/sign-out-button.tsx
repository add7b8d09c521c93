"use client";

import { signOutHere } from "@/components/auth/sign-out-here";
import { buttonClass } from "@/components/ui/button";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => void signOutHere()} className={buttonClass("ghost", "sm")}>
      Sign out
    </button>
  );
}
