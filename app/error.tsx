"use client";

import Link from "next/link";
import { useEffect } from "react";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div role="alert" className="space-y-4">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-slate-700">
        This page failed to load. Try again; if it keeps failing, the service may be restarting.
      </p>
      {error.digest ? (
        <p className="text-sm text-slate-600">
          Reference: <code>{error.digest}</code>
        </p>
      ) : null}
      <div className="flex gap-4">
        <button
          type="button"
          onClick={reset}
          className="rounded bg-blue-700 px-3 py-1.5 font-medium text-white hover:bg-blue-800"
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
