/**
 * In-process notice that keys' standing changed: a key revoked, deactivated, activated or rolled, or its account's
 * status or plan changed. The domain announces it once the change is committed; this process's key cache
 * (lib/api/credentials.ts) then forgets what it knew of those keys, so the next call through this process reads the
 * change. Other processes see it within KEY_CACHE_TTL_MS, as before.
 * Kept on globalThis: Next bundles its route handlers apart, and the portal's routes and the API's share one process.
 */
export type KeyStandingChange = { keyId: string } | { accountId: string };
type Listener = (change: KeyStandingChange) => void;

const KEY = Symbol.for("ora.keyStanding.listeners");
const listeners: Set<Listener> = ((globalThis as Record<symbol, Set<Listener> | undefined>)[KEY] ??= new Set());

/** Subscribes; returns the unsubscribe. */
export function onKeyStandingChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Announces `change` once `committed` resolves (never before: a cache reloaded in between would keep the old row). */
export async function announceKeyStanding<T>(committed: Promise<T>, change: KeyStandingChange): Promise<T> {
  const result = await committed;
  for (const listener of listeners) listener(change);
  return result;
}
