/**
 * What health needs to know about the request path's store waits: whether a given part (admission) is failing right
 * now. A failure counts for a few seconds only, so a process that a load balancer took out still comes back once its
 * own probe passes.
 */
const FAILURE_COUNTS_MS = 5000;

const states = new WeakMap<object, Map<string, { ok: boolean; at: number }>>();

/** Records the latest outcome of `part`'s store wait on `pool` (the pool's handle as the key). */
export function reportStoreOutcome(pool: object, part: string, ok: boolean, now = Date.now()): void {
  let parts = states.get(pool);
  if (!parts) {
    parts = new Map();
    states.set(pool, parts);
  }
  const last = parts.get(part);
  if (last && last.ok === ok && ok) return; // the hot path: success after success writes nothing
  parts.set(part, { ok, at: now });
}

/** The parts of `pool` whose latest store wait failed within the last few seconds. */
export function failingParts(pool: object, now = Date.now()): string[] {
  const parts = states.get(pool);
  if (!parts) return [];
  const out: string[] = [];
  for (const [part, s] of parts) if (!s.ok && now - s.at < FAILURE_COUNTS_MS) out.push(part);
  return out;
}
