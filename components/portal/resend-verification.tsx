"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { portalResult } from "@/components/portal/portal-fetch";

export function ResendVerificationButton() {
  const router = useRouter();
  const [state, setState] = useState<
    { kind: "idle" | "pending" } | { kind: "sent"; delivery: "smtp" | "log" } | { kind: "error"; message: string }
  >({ kind: "idle" });

  async function resend() {
    setState({ kind: "pending" });
    const res = await portalResult<{ delivery: "smtp" | "log" }>("/api/portal/verify-email/resend", {});
    setState(res.ok ? { kind: "sent", delivery: res.data.delivery } : { kind: "error", message: res.message });
    if (res.ok) router.refresh(); // the banner above says what happened to the new link
  }

  return (
    <div className="space-y-2">
      <button
        type="button"
        onClick={resend}
        disabled={state.kind === "pending"}
        className={buttonClass("primary", "sm")}
      >
        {state.kind === "pending" ? "Sending…" : "Resend verification mail"}
      </button>
      <div aria-live="polite" className="text-sm">
        {state.kind === "sent"
          ? state.delivery === "smtp"
            ? "A new link is on its way; earlier links no longer work."
            : "No mail server is configured (SMTP_URL): the new link was written to the server log."
          : null}
        {state.kind === "error" ? <span className="text-bad">{state.message}</span> : null}
      </div>
    </div>
  );
}
