/**
 * V8's old-generation growing factor for the standalone API server (issue 33; docs/operations.md "Memory of the
 * standalone server"). After each full collection V8 lets the old generation grow to a factor × what survived before
 * the next one; when collections are cheap next to the program's allocation, as under the metered pipeline's load, it
 * picks 4. What fills the old generation there is promoted garbage (calls that outlive two scavenges), so the server's
 * peak RSS followed that factor: about 300 MB on a live set of 33–45 MB. A fixed factor of 1 + percent/100 bounds it;
 * the default 200 (3 ×) kept the benchmark's peak at 221–226 MB (266 MB with V8's own schedule), at a server CPU per
 * call within run-to-run noise (0–5 % above V8's schedule at saturation on a shared 2-core machine), while 50 (1.5 ×)
 * cost about 15 % more CPU. Set at start-up with v8.setFlagsFromString: V8 reads the flag at each collection.
 */
import { setFlagsFromString } from "node:v8";

/** Sets the factor (percent > 0); 0 leaves V8's own schedule and any `--heap-growing-percent` on the command line. */
export function applyHeapGrowing(percent: number, setFlags: (flags: string) => void = setFlagsFromString): void {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`heap growing percent ${percent}`);
  if (percent > 0) setFlags(`--heap-growing-percent=${percent}`);
}
