/** A bounded in-process cache whose entries expire after ttlMs; concurrent misses share one load. */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();
  private readonly inflight = new Map<K, Promise<V>>();
  /** Bumped by every invalidation: a load that began before it is answered to its callers but not kept. */
  private generation = 0;

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
    const generation = this.generation;
    const loading = this.load(key).then(
      (value) => {
        if (this.inflight.get(key) === loading) this.inflight.delete(key);
        if (generation !== this.generation) return value;
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
        this.entries.delete(key); // re-insert so Map order tracks recency of loading
        this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
        return value;
      },
      (err) => {
        if (this.inflight.get(key) === loading) this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, loading);
    return loading;
  }

  invalidate(key?: K): void {
    this.generation++;
    if (key === undefined) {
      this.entries.clear();
      this.inflight.clear();
    } else {
      this.entries.delete(key);
      this.inflight.delete(key);
    }
  }

  /** Forgets every kept entry whose value matches (and every load in flight, which may have read the old state). */
  invalidateWhere(matches: (value: V) => boolean): void {
    this.generation++;
    this.inflight.clear();
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }
}
