/**
 * PostgreSQL refused a value, not the request's right to be served: a string that is not a uuid, a number or a date
 * for its column (22P02, 22007, 22008, 22003), or a character text cannot hold, such as NUL (22021, 22P05). The input
 * rule (lib/util/input-rule.ts) stops these before SQL; this is the net behind it, so a route that slips still answers
 * 400, never 500.
 */
const REFUSED_VALUE = new Set(["22P02", "22007", "22008", "22003", "22021", "22P05"]);

export function isStoreRefusedValue(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== "object" || depth > 4) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && REFUSED_VALUE.has(code)) return true;
  const cause = (err as { cause?: unknown }).cause;
  return cause !== err && isStoreRefusedValue(cause, depth + 1);
}
