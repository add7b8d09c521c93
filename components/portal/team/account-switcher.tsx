"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ROLE_LABELS, type Role } from "@/lib/shared/roles";
import { ErrorNote } from "../error-note";
import { portalFetch } from "../portal-fetch";

/** For a member of several accounts: which one the portal acts on, and a switch to another. */
export function AccountSwitcher({
  accounts,
  current,
}: {
  accounts: { accountId: string; name: string; role: Role }[];
  current: string;
}) {
  const [chosen, setChosen] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await portalFetch("/api/portal/accounts/switch", { method: "POST", body: { accountId: chosen } });
      window.location.assign("/dashboard"); // every page, the nav included, now reads the other account
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} className="space-y-1.5 px-6 py-3 text-sm" aria-label="Account switcher">
      <label htmlFor="account-switch" className="block text-xs font-medium text-muted">
        Account
      </label>
      <div className="flex gap-1.5">
        <select
          id="account-switch"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          className="min-w-0 flex-1 rounded border border-line-strong bg-surface px-2 py-1 text-fg"
        >
          {accounts.map((a) => (
            <option key={a.accountId} value={a.accountId}>
              {a.name} ({ROLE_LABELS[a.role]})
            </option>
          ))}
        </select>
        <Button size="sm" type="submit" disabled={busy || chosen === current}>
          Switch
        </Button>
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </form>
  );
}
