/** Dates in the admin tables: UTC, to the minute, so every admin reads the same time. */
export function utc(iso: string | null | undefined): string {
  if (!iso) return "—";
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** How long ago, in the largest whole unit (minutes, hours, days): "12 min ago", "3 h ago", "4 days ago". */
export function ago(iso: string | null, now: Date): string {
  if (!iso) return "never";
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ago`;
  return `${Math.floor(minutes / 1440)} days ago`;
}
