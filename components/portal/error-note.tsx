import Link from "next/link";
import { PortalApiError } from "./portal-fetch";

/** A refused portal call, announced; a missing subscription links to the Plan page. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof PortalApiError ? error : null;
  return (
    <div role="alert" className="rounded border border-bad/40 bg-bad-soft px-3 py-2 text-sm text-bad">
      <p>{e?.message ?? "Something went wrong; retry."}</p>
      {e?.code === "subscription_required" ? (
        <p className="mt-1">
          <Link href="/dashboard/plan" className="font-medium text-bad underline">
            Change your plan
          </Link>
        </p>
      ) : null}
      {e?.code === "email_unverified" || /verified e-mail/.test(e?.message ?? "") ? (
        <p className="mt-1">Verification links are sent when you sign up; see your dashboard.</p>
      ) : null}
    </div>
  );
}
