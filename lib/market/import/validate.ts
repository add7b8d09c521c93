/** Pure whole-file checks shared by the CSV path and provider feeds: row invariants and duplicate keys. */
import type { ImportError, KindSpec } from "./types";

/** Line of row i: the CSV line when known, else the 1-based row index. */
export const lineOf = (lines: readonly number[] | undefined, i: number): number => lines?.[i] ?? i + 1;

/** Rows whose primary key repeats an earlier row's; one error per line (treasury lines hold many rows). */
export function findDuplicates<R>(spec: KindSpec<R>, rows: readonly R[], lines?: readonly number[]): ImportError[] {
  const firstLine = new Map<string, number>();
  const errors: ImportError[] = [];
  const reported = new Set<number>();
  rows.forEach((row, i) => {
    const key = spec.key(row);
    const line = lineOf(lines, i);
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, line);
    else if (!reported.has(line)) {
      reported.add(line);
      errors.push({ line, reason: `duplicate of line ${first} (same ${spec.describeKey(row)})` });
    }
  });
  return errors;
}

/** Every invariant failure of every row, plus duplicate keys among the rows that pass. */
export function checkRows<R>(spec: KindSpec<R>, rows: readonly R[], lines?: readonly number[]): ImportError[] {
  const errors: ImportError[] = [];
  const good: R[] = [];
  const goodLines: number[] = [];
  rows.forEach((row, i) => {
    let problems: string[];
    try {
      problems = spec.check(row);
    } catch {
      problems = ["row is not a valid object of this kind"];
    }
    for (const reason of problems) errors.push({ line: lineOf(lines, i), reason });
    if (!problems.length) {
      good.push(row);
      goodLines.push(lineOf(lines, i));
    }
  });
  return sortErrors([...errors, ...findDuplicates(spec, good, goodLines)]);
}

/** Line order, stable within a line; identical (line, reason) pairs collapsed. */
export function sortErrors(errors: readonly ImportError[]): ImportError[] {
  const seen = new Set<string>();
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.line - b.e.line || a.i - b.i)
    .map(({ e }) => e)
    .filter((e) => {
      const k = `${e.line}\u0000${e.reason}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
}
