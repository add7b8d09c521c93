"use client";

import { useTheme } from "next-themes";
import { useEffect, useState } from "react";

/**
 * Status classes and families always get the same colour (from the theme's tokens); other series (routes, keys) take
 * the palette in the chart's order, so no two of a chart's first nine share a colour (by name, three routes did).
 */
const NAMED: Record<string, string> = {
  "2xx": "--series-2xx",
  "4xx": "--series-4xx",
  "429": "--series-429",
  "5xx": "--series-5xx",
  "Family A": "--series-a",
  "Family B": "--series-b",
};
/** Okabe–Ito and friends: colour-blind-safe, readable in both themes. */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8a6d00", "#56B4E9", "#6b7280", "#b8004f", "#7c5cc4"];

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}

/**
 * The colour of one series, by its place among the chart's series (or by its name when no place is given);
 * recomputed when the theme changes (SVG attributes cannot read CSS variables).
 */
export function useSeriesColour(): (group: string, index?: number) => string {
  const { resolvedTheme } = useTheme();
  const [vars, setVars] = useState<Record<string, string>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: the CSS variables change with the theme class
  useEffect(() => {
    const style = getComputedStyle(document.documentElement);
    setVars(Object.fromEntries(Object.entries(NAMED).map(([g, v]) => [g, style.getPropertyValue(v).trim()])));
  }, [resolvedTheme]);
  return (group, index) => vars[group] || PALETTE[(index ?? hash(group)) % PALETTE.length];
}
