/**
 * Refusal messages that the API answers and the portal or admin console shows too, one function each, so a preview or
 * a page says exactly what a caller gets. Browser-safe: strings only.
 */

/** `endpoint_pending_licensing`: the gateway's answer, the stream's re-check and the admin console's preview. */
export const pendingLicensingMessage = (route: { method: string; path: string }, env: "test" | "live") =>
  `${route.method} ${route.path} is switched off for ${env} keys pending a data-licensing review.`;

/** What a live key of this style needs (docs/api-contract.md §3). */
export const liveKeyRequirement = (style: "standard" | "sk") =>
  style === "sk"
    ? "svc_sk_live_ keys need a paid plan (Starter or higher)"
    : "Live keys (svc_live_) need the Pro or Enterprise plan";

/** `subscription_required` for a live key: the API's answer to a call, the portal's to creating or rolling one. */
export const liveKeyRefusal = (style: "standard" | "sk", planName: string) =>
  `${liveKeyRequirement(style)}; this account is on ${planName}.`;
