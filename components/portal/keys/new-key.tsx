"use client";

import Link from "next/link";
import { SecretOnce } from "../secret-once";

export interface ShownKey {
  label: string;
  key: string;
  id: string;
}

/** A key just made, shown once, and where to use it next: the playground (chosen by name there) or the quick start. */
export function NewKey({ shown, onDone }: { shown: ShownKey; onDone: () => void }) {
  return (
    <div className="space-y-2">
      <SecretOnce label={shown.label} secret={shown.key} onDone={onDone} />
      <p className="text-sm">
        Next, call it:{" "}
        <Link href={`/dashboard/playground?key=${encodeURIComponent(shown.id)}`}>try it in the playground</Link> (it is
        chosen there for you, no need to paste it), or from your machine with the{" "}
        <Link href="/docs/guides/quick-start">quick start</Link> after <code>export API_KEY=…</code> with this key.
      </p>
    </div>
  );
}
