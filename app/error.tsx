"use client";

import Link from "next/link";
import { useEffect } from "react";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div role="alert" className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">Something went wrong</h1>
      <p className="text-muted">
        This page failed to load. Try again; if it keeps failing, the service may be restarting.
      </p>
      {error.digest ? (
        <p className="text-sm text-muted">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <div className="flex gap-4">
        <button
          type="button"
          onClick={reset}
          className="rounded bg-accent px-3 py-1.5 font-medium text-accent-fg hover:bg-accent-hover"
        >
          Try again
        </button>
        <Link href="/" className="self-center">
          Go to the home page
        </Link>
      </div>
    </div>
  );
}
