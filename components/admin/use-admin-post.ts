"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { portalFetch } from "@/components/portal/portal-fetch";

/**
 * One admin change sent as a POST: busy while it runs and its refusal as `error`; once it succeeds, `onDone` runs and
 * the page's server data reloads.
 */
export function useAdminPost() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function post(path: string, body: unknown, onDone: () => void) {
    setBusy(true);
    setError(null);
    try {
      await portalFetch(path, { method: "POST", body });
      onDone();
      router.refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, post };
}
