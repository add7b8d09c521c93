import { DISCLAIMER } from "@/lib/contract/disclaimer";

/**
 * The service disclaimer, named for assistive technology. Full size where analytics are shown (responses, examples);
 * `compact` (one quiet line) on pages that only manage the account.
 */
export function DisclaimerNote({ compact = false }: { compact?: boolean }) {
  if (compact)
    return (
      <aside aria-label="Disclaimer" className="border-t border-line pt-3 text-xs text-muted">
        <p>
          <strong className="font-medium text-fg">Disclaimer.</strong> {DISCLAIMER}
        </p>
      </aside>
    );
  return (
    <aside
      aria-label="Disclaimer"
      className="rounded-lg border border-warn/40 bg-warn-soft px-4 py-3 text-sm text-warn"
    >
      <p>
        <strong>Disclaimer.</strong> {DISCLAIMER}
      </p>
    </aside>
  );
}
