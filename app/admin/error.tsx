"use client";

import { Button } from "@/components/ui/button";

/** An admin page whose server data failed: said plainly, with a retry and the reference to quote. */
export default function AdminError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="max-w-2xl space-y-3 rounded-lg border border-bad/40 bg-bad-soft p-4 text-sm text-bad">
      <p className="font-medium">This admin page could not be loaded.</p>
      <p>Retry; if it keeps failing, the service or its database may be restarting.</p>
      {error.digest ? (
        <p>
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <Button size="sm" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
