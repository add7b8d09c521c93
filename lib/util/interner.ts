/**
 * One object per distinct value while a batch of database rows becomes long-lived data: every row of a result carries
 * its own copy of each text value and the mappers made a Date per row, so a loaded market (one chain snapshot of
 * thousands of quotes at one instant, 300 daily bars per symbol on the same days) held tens of thousands of equal
 * strings and Dates. The engine keeps the snapshot for the process's life; sharing them takes several MB off the heap
 * the old generation grows from (docs/operations.md, "Memory"). The shared Dates must not be mutated (nothing does).
 */
export interface Interner {
  /** The one Date of this epoch-milliseconds value (a number, or its text as the database answers it). */
  date(ms: unknown): Date;
  /** The one string equal to `s`. */
  text<T extends string>(s: T): T;
}

export function interner(): Interner {
  const dates = new Map<number, Date>();
  const texts = new Map<string, string>();
  return {
    date(v) {
      const ms = Number(v);
      let d = dates.get(ms);
      if (d === undefined) {
        d = new Date(ms);
        dates.set(ms, d);
      }
      return d;
    },
    text<T extends string>(s: T): T {
      const kept = texts.get(s);
      if (kept !== undefined) return kept as T;
      texts.set(s, s);
      return s;
    },
  };
}
