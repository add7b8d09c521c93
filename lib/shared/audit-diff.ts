/**
 * An audit entry's before/after as the fields that changed (pure): each top-level field with its old and new value as
 * text; nested values are shown as compact JSON. Fields equal on both sides are left out, unless nothing changed.
 */
export interface DiffLine {
  field: string;
  before: string | null;
  after: string | null;
}

const text = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === "string" ? v : JSON.stringify(v);

const asObject = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export function auditDiff(before: unknown, after: unknown): DiffLine[] {
  const b = asObject(before);
  const a = asObject(after);
  if ((before != null && !b) || (after != null && !a))
    return [{ field: "value", before: text(before), after: text(after) }];
  const fields = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])];
  return fields
    .map((field) => ({ field, before: text(b?.[field]), after: text(a?.[field]) }))
    .filter((l) => l.before !== l.after);
}
