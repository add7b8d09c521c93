import { DISCLAIMER } from "@/lib/contract/disclaimer";

/** The service disclaimer as a visible note; `compact` is the footer variant. */
export function DisclaimerNote({ compact = false }: { compact?: boolean }) {
  if (compact) return <p className="text-sm text-slate-700">{DISCLAIMER}</p>;
  return (
    <aside
      aria-label="Disclaimer"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
    >
      <p>
        <strong>Disclaimer.</strong> {DISCLAIMER}
      </p>
    </aside>
  );
}
