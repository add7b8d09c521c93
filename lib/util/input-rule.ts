/**
 * The one input rule every route applies before its schema (issue 30): no string anywhere in a request's path
 * parameters, query or JSON body (keys included) may hold a control character — NUL (which PostgreSQL's text cannot
 * store) and the other C0 controls and DEL; tab, line feed and carriage return stay allowed for multi-line fields.
 * Path ids must look like ids (ID_SHAPE) before they reach SQL.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** A UUID, or a prefixed random id such as key_… and wh_… (letters, digits, _ and -, at most 100). */
export const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;
export const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const hasControlChar = (s: string) => CONTROL.test(s);

/** Where the first control character is ("" for the value itself, else a dotted path), or null when clean. */
export function controlCharAt(value: unknown, path = "", depth = 0): string | null {
  if (typeof value === "string") return CONTROL.test(value) ? path : null;
  if (value === null || typeof value !== "object" || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = controlCharAt(value[i], `${path}[${i}]`, depth + 1);
      if (at !== null) return at;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    const at = CONTROL.test(key)
      ? path || "(field name)"
      : controlCharAt(inner, path ? `${path}.${key}` : key, depth + 1);
    if (at !== null) return at;
  }
  return null;
}

export const controlCharMessage = (field: string) =>
  `${field ? `${field} ` : ""}contains a control character (such as NUL); remove it.`.replace(/^c/, "C");

/** The first path parameter that is not shaped like an id, or null. */
export function malformedId(params: Record<string, string | string[] | undefined> | undefined): string | null {
  // Next hands a route without dynamic segments no params object at all.
  for (const [name, value] of Object.entries(params ?? {}))
    if (typeof value === "string" && !ID_SHAPE.test(value)) return name;
  return null;
}
