/**
 * Whether a health route answers 200 with `data.status` "ok" within `timeoutMs`, headers and body. Never throws: a
 * timeout's abort can land while the body is read, and `npm start` runs its announcer unawaited, where a rejection
 * once stopped the whole process (and the embedded database with it) on a loaded machine.
 */
export async function healthOk(url: string, timeoutMs = 10_000): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok && ((await res.json()) as { data?: { status?: string } }).data?.status === "ok";
  } catch {
    return false;
  }
}
