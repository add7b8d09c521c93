"use client";

export default function AdminError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
      <p>This admin page could not be loaded. Retry; if it keeps failing, the service may be restarting.</p>
      {error.digest ? (
        <p className="text-sm">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <button
        type="button"
        onClick={reset}
        className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-700"
      >
        Try again
      </button>
    </div>
  );
}
