/**
 * A memo table for computations that recur with few live keys: `get(key, make)` answers the kept value, or makes, keeps
 * and answers it. When it holds `max` entries it is emptied before the next one is added, so memory stays bounded
 * without LRU bookkeeping on the hot path; the few keys still in use are made again on their next call.
 * `make` should be a module-level function where the caller is hot, so that no closure is allocated per call.
 */
export class BoundedMemo<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K, make: (key: K) => V): V {
    let value = this.entries.get(key);
    if (value === undefined) {
      if (this.entries.size >= this.max) this.entries.clear();
      value = make(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Forgets every kept value (when what they were made from has changed). */
  clear(): void {
    this.entries.clear();
  }
}
