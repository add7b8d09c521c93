"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

/**
 * A mutation of one item that waits for a confirmation: the item awaiting it (`start` asks, the confirmation's Cancel
 * clears it), and the mutation, which clears it and refreshes the list on success.
 */
export function useConfirmed<T>(mutationFn: (item: T) => Promise<unknown>, refresh: () => Promise<void>) {
  const [pending, setPending] = useState<T | null>(null);
  const mutation = useMutation({
    mutationFn,
    onSuccess: () => {
      setPending(null);
      void refresh();
    },
  });
  const start = (item: T) => {
    mutation.reset();
    setPending(item);
  };
  return { pending, setPending, mutation, start };
}
