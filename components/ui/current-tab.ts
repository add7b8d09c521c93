"use client";

import { useLayoutEffect, useRef } from "react";

/**
 * For a row of tabs that scrolls sideways inside itself (phones): scrolls the row, never the page, so the current tab
 * (`aria-current="page"`) is in view, e.g. "Plan" at the end of the dashboard's tabs. `key` is what changes the current
 * tab (the path).
 */
export function useCurrentTabInView<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the current tab changes with `key` (the path)
  useLayoutEffect(() => {
    const row = ref.current;
    const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !current || row.scrollWidth <= row.clientWidth) return;
    const rowBox = row.getBoundingClientRect();
    const tab = current.getBoundingClientRect();
    if (tab.left >= rowBox.left && tab.right <= rowBox.right) return;
    // Centre the tab in the row, so its neighbours show on both sides.
    row.scrollLeft += tab.left - rowBox.left - (rowBox.width - tab.width) / 2;
  }, [key]);
  return ref;
}
