"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorNote } from "@/components/portal/error-note";
import { portalFetch } from "@/components/portal/portal-fetch";

/** A button that POSTs one admin action, then reloads the page's server data; a refusal is announced next to it. */
export function ActionButton({
  path,
  body,
  label,
  confirm,
  tone = "default",
}: {
  path: string;
  body?: unknown;
  label: string;
  confirm?: string;
  tone?: "default" | "danger";
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run() {
    if (confirm && !window.confirm(confirm)) return;
    setBusy(true);
    setError(null);
    try {
      await portalFetch(path, { method: "POST", body: body ?? {} });
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const colour =
    tone === "danger"
      ? "border-red-700 text-red-800 hover:bg-red-50"
      : "border-blue-700 text-blue-800 hover:bg-blue-50";
  return (
    <span className="inline-flex flex-col gap-1">
      <button
        type="button"
        onClick={run}
        disabled={busy}
        className={`rounded border px-2 py-1 text-sm font-medium disabled:opacity-60 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700 ${colour}`}
      >
        {busy ? `${label}…` : label}
      </button>
      <ErrorNote error={error} />
    </span>
  );
}
