/** Dates in the admin tables: UTC, to the minute, so every admin reads the same time. */
export function utc(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}
