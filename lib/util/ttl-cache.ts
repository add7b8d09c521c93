/** A bounded in-process cache whose entries expire after ttlMs; concurrent misses share one load. */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private readonly inflight = new Map<K, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly load: (key: K) => Promise<V>,
  ) {}

  get(key: K, now = Date.now()): V | Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const loading = this.load(key).then(
      (value) => {
        this.inflight.delete(key);
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
        this.entries.delete(key); // re-insert so Map order tracks recency of loading
        this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
        return value;
      },
      (err) => {
        this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, loading);
    return loading;
  }

  invalidate(key?: K): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
