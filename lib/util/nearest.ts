/** Up to `n` values nearest `target` by `key` (ties: the lower first), ascending: for "did you mean" error messages. */
export function nearest<T>(values: readonly T[], key: (v: T) => number, target: number, n = 3): T[] {
  return [...values]
    .sort((a, b) => Math.abs(key(a) - target) - Math.abs(key(b) - target) || key(a) - key(b))
    .slice(0, n)
    .sort((a, b) => key(a) - key(b));
}
