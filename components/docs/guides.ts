/** The guides under /docs/guides/<slug>, in reading order. */
export const GUIDES = [
  { slug: "quick-start", title: "Quick start", description: "From sign-up to a first successful call." },
  {
    slug: "authentication",
    title: "Authentication",
    description: "Key formats, the three headers, and the order of key checks.",
  },
  {
    slug: "errors",
    title: "Errors",
    description: "Every error code, its HTTP status, and both families' error bodies.",
  },
  {
    slug: "limits",
    title: "Limits",
    description: "Per-minute bursts, quotas, rate-limit headers and the plan tables.",
  },
  {
    slug: "data-labels",
    title: "Data labels and disclaimer",
    description: "demo, live, delayed-15m, end-of-day, and the disclaimer you must show.",
  },
  { slug: "metrics", title: "Metric definitions", description: "What every number in a response means." },
] as const;

export type GuideSlug = (typeof GUIDES)[number]["slug"];
