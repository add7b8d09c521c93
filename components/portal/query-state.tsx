"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/** Loading (a skeleton), error (with retry) and success states of one react-query result, the same on every portal page. */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Skeleton what={what} />;
  if (query.isError) {
    return (
      <div role="alert" className="space-y-2 rounded-lg border border-bad/40 bg-bad-soft p-4 text-sm text-bad">
        <p>
          The {what} could not be loaded: {query.error.message}
        </p>
        <Button size="sm" onClick={() => query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}
