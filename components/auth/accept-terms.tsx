"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "./post-json";
import { safeCallback } from "./signin-form";

export function AcceptTermsButton({ version, callbackUrl }: { version: number; callbackUrl?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function accept() {
    setPending(true);
    setError(null);
    const res = await postJson("/api/portal/terms", { version });
    setPending(false);
    if (!res.ok) return setError(res.message);
    router.push(safeCallback(callbackUrl));
    router.refresh();
  }

  return (
    <div className="space-y-2">
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button
        type="button"
        onClick={accept}
        disabled={pending}
        className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {pending ? "Saving…" : "Accept the terms"}
      </button>
    </div>
  );
}
