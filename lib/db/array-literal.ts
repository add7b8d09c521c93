/**
 * PostgreSQL array literals, sent as one text parameter and cast in SQL (`${arrayLiteral(xs)}::int[]`): the drizzle
 * postgres-js driver passes array parameters through unserialised, and a literal built here costs a fraction of the
 * driver's generic array serializer on the admission path (one batch sends a dozen arrays).
 */
export type Cell = string | number | boolean | null;

const NEEDS_ESCAPE = /["\\]/;

/** One element: NULL, a finite number, t/f, or a double-quoted string with `"` and `\` escaped. */
function element(v: Cell): string {
  if (v === null) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`non-finite number in an array literal: ${v}`);
    return String(v);
  }
  if (typeof v === "boolean") return v ? "t" : "f";
  return NEEDS_ESCAPE.test(v) ? `"${v.replace(/[\\"]/g, "\\$&")}"` : `"${v}"`;
}

export function arrayLiteral(values: readonly Cell[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) out += (i ? "," : "") + element(values[i]);
  return out + "}";
}
