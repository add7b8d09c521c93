"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { FormValues } from "@/lib/contract/field-attrs";
import { type browserOriginsBody, MAX_BROWSER_ORIGINS } from "@/lib/contract/portal-inputs";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";

/** The account's "Allowed browser origins" (CORS), one per line; the owner saves the whole list. */
export function BrowserOriginsForm({ initial, canManage }: { initial: string[]; canManage: boolean }) {
  const [text, setText] = useState(initial.join("\n"));
  const save = useMutation({
    mutationFn: (origins: string[]) =>
      portalFetch<{ origins: string[] }, FormValues<typeof browserOriginsBody>>("/api/portal/browser-origins", {
        method: "PUT",
        body: { origins },
      }),
    onSuccess: (saved) => setText(saved.origins.join("\n")),
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      text
        .split(/\s+/)
        .map((o) => o.trim())
        .filter(Boolean),
    );
  }
  return (
    <form onSubmit={submit} className="space-y-3 rounded border border-line p-4" aria-labelledby="origins-title">
      <h2 id="origins-title" className="text-xl font-semibold">
        Allowed browser origins
      </h2>
      <p className="text-sm text-muted">
        Web pages on these origins may call the API from the browser with this account&apos;s keys (CORS). One origin
        per line, as <code>https://app.example.com</code> or <code>http://127.0.0.1:5173</code>: scheme, host and port
        only, at most {MAX_BROWSER_ORIGINS}. A key in browser code is visible to everyone who uses the page: use a test
        key, or an internal tool whose users may see the key; otherwise call the API from your server. Changes apply
        within 5 seconds.
      </p>
      <label htmlFor="browser-origins" className="block text-sm font-medium">
        Origins
      </label>
      <textarea
        id="browser-origins"
        name="origins"
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        disabled={!canManage}
        spellCheck={false}
        className="w-full max-w-full rounded border border-line bg-surface px-3 py-2 font-mono text-sm"
      />
      <ErrorNote error={save.error} />
      {save.isSuccess ? (
        <p role="status" className="text-sm text-ok">
          Saved {save.data.origins.length} origin{save.data.origins.length === 1 ? "" : "s"}.
        </p>
      ) : null}
      {canManage ? (
        <button
          type="submit"
          disabled={save.isPending}
          className="rounded bg-accent px-4 py-2 font-medium text-accent-fg hover:bg-accent-hover disabled:opacity-60"
        >
          {save.isPending ? "Saving…" : "Save origins"}
        </button>
      ) : (
        <p className="text-sm text-muted">Only the account owner can change the origins.</p>
      )}
    </form>
  );
}
