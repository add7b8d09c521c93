"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { KeyListItem } from "@/lib/domain/keys";
import { mayUseKey, type Role } from "@/lib/shared/roles";
import { portalFetch } from "../portal-fetch";

/** The key select's value for "paste a key"; any other non-empty value is one of the account's key ids. */
export const PASTED = "pasted";

/**
 * Which key the playground calls with: the account's keys the member may use (active, of an environment their role
 * may use), the choice (a key id, PASTED, or "" for none; first the page's `?key=`, else the newest usable key), the
 * pasted key, and the credential a call sends: `keyId` (the server acts as that key) or `key`.
 */
export function useKeyChoice(initialKeys: KeyListItem[], role: Role, initialKeyId?: string) {
  const all = useQuery({
    queryKey: ["portal", "keys"],
    queryFn: () => portalFetch<KeyListItem[]>("/api/portal/keys"),
    initialData: initialKeys,
  });
  const keys = (all.data ?? []).filter((k) => k.state === "active" && mayUseKey(role, k.env));
  const [choice, onChoice] = useState(() => keys.find((k) => k.id === initialKeyId)?.id ?? keys[0]?.id ?? "");
  const [pasted, onPasted] = useState("");
  const ownKey = keys.find((k) => k.id === choice);
  const credential = choice === PASTED ? { key: pasted.trim() } : ownKey ? { keyId: ownKey.id } : {};
  return { keys, loading: all.isPending, choice, onChoice, pasted, onPasted, ownKey, credential };
}
