/**
 * Rendered answers of `GET /api/v1/history/{symbol}` kept in the process, keyed by environment, symbol, range, fields
 * and format, bounded by the text they hold (HISTORY_CACHE_MB; least recently used first out). A kept answer carries
 * the version of its stored range (md5 of each row's date and row version, see snapshotRangeVersion) and when that
 * version was last confirmed: the route uses it as is for HISTORY_CACHE_CHECK_MS after that, then only once it has
 * read the range's current version again. So a write by any process is answered within HISTORY_CACHE_CHECK_MS.
 */

/** One rendered answer: the data's JSON text or the CSV body, and what it was rendered from. */
export interface RenderedHistory {
  /** The stored range's version when the rows were read. */
  version: string;
  body: string;
  /** As-of time of the newest row (the envelope's data label). */
  asOf: Date | undefined;
  /** performance.now() when the read or check that confirmed `version` was sent (the store was at least that new). */
  checkedAt: number;
}

/** What an entry costs beyond its text (key, object, map slot): a rough bound, so that tiny answers still count. */
const ENTRY_OVERHEAD_BYTES = 256;

export class HistoryCache {
  private readonly entries = new Map<string, RenderedHistory>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** The kept answer (now the most recently used), or undefined. */
  get(key: string): RenderedHistory | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Keeps an answer, replacing the key's previous one; the least recently used go until the bound holds again. */
  set(key: string, entry: RenderedHistory): void {
    this.delete(key);
    const cost = costOf(key, entry);
    if (cost > this.maxBytes / 4) return; // one answer never takes most of the room (nor any, when switched off)
    this.entries.set(key, entry);
    this.held += cost;
    for (const [oldest, e] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.held -= costOf(oldest, e);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.held -= costOf(key, entry);
  }

  /** Answers kept and the bytes counted against the bound. */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.held };
  }
}

/** Counted at a byte a character: the JSON and CSV text is ASCII but for instrument names and labels. */
const costOf = (key: string, e: RenderedHistory) => key.length + e.body.length + ENTRY_OVERHEAD_BYTES;
