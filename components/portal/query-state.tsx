"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";

/** Loading, error (with retry) and success states of one react-query result, the same on every portal page. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <p role="status" className="text-slate-700">
        Loading {what}…
      </p>
    );
  if (query.isError) {
    return (
      <div role="alert" className="space-y-2 rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
        <p>
          The {what} could not be loaded: {query.error.message}
        </p>
        <button
          type="button"
          onClick={() => query.refetch()}
          className="rounded border border-red-800 px-3 py-1 text-sm"
        >
          Retry
        </button>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}
