/**
 * A body size as the request log's drawer shows it: the exact count of bytes, and past a thousand the same in decimal
 * units (kB = 1,000 bytes, MB = 1,000,000 bytes, one decimal), as HTTP tooling reports Content-Length.
 */
export function formatBytes(bytes: number): string {
  const exact = `${bytes.toLocaleString("en-US")} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1000) return exact;
  const [unit, size] = bytes < 1_000_000 ? ["kB", 1000] : ["MB", 1_000_000];
  return `${exact} (${(bytes / (size as number)).toFixed(1)} ${unit})`;
}
