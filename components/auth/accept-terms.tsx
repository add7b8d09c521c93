"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { portalResult } from "@/components/portal/portal-fetch";
import { safeCallback } from "./signin-form";

export function AcceptTermsButton({ version, callbackUrl }: { version: number; callbackUrl?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function accept() {
    setPending(true);
    setError(null);
    const res = await portalResult("/api/portal/terms", { version });
    setPending(false);
    if (!res.ok) return setError(res.message);
    router.push(safeCallback(callbackUrl));
    router.refresh();
  }

  return (
    <div className="space-y-2">
      {error ? (
        <p role="alert" className="text-sm text-bad">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        onClick={accept}
        disabled={pending}
        className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
      >
        {pending ? "Saving…" : "Accept the terms"}
      </button>
    </div>
  );
}
