import { signOutEverywhere } from "@/lib/auth/actions";

/** Ends every session of the signed-in person, in every browser, then this one. */
export function SignOutEverywhereButton() {
  return (
    <form action={signOutEverywhere}>
      <button type="submit" className="rounded border border-slate-400 px-3 py-1.5 text-sm">
        Sign out everywhere
      </button>
    </form>
  );
}
