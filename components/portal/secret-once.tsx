"use client";

import { useState } from "react";

/** A key shown once: a copy button and a warning that it cannot be shown again. */
export function SecretOnce({
  label,
  secret,
  onDone,
  note,
  what = "key",
}: {
  label: string;
  secret: string;
  onDone: () => void;
  note?: string;
  what?: string;
}) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  }
  return (
    <section aria-labelledby="secret-once-title" className="space-y-3 rounded border border-warn/40 bg-warn-soft p-4">
      <h2 id="secret-once-title" className="text-lg font-semibold">
        {label}
      </h2>
      <p role="alert" className="text-sm font-medium text-warn">
        {note ?? "Copy this key now: it is shown only once. We store only a digest of it and cannot show it again."}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="secret-once-value" className="sr-only">
          {what === "key" ? "API key" : what}
        </label>
        <input
          id="secret-once-value"
          readOnly
          value={secret}
          data-testid="new-key"
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded border border-line-strong bg-surface px-3 py-2 font-mono text-sm"
        />
        <button
          type="button"
          onClick={copy}
          className="rounded bg-accent px-3 py-2 font-medium text-accent-fg hover:bg-accent-hover"
        >
          Copy
        </button>
      </div>
      <p aria-live="polite" className="text-sm">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "failed"
            ? `The browser refused the clipboard; select the ${what} and copy it by hand.`
            : ""}
      </p>
      <button
        type="button"
        onClick={onDone}
        className="rounded border border-line-strong px-3 py-2 text-sm font-medium hover:bg-hover"
      >
        I have saved the {what}
      </button>
    </section>
  );
}
