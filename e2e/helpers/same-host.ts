import type { BrowserContext } from "@playwright/test";

/**
 * Records every request the context's pages make to a host other than the app's; the caller asserts the list is
 * empty (e2e/same-host.ui.spec.ts shows such a request is seen). It watches (the context's `request` event) rather
 * than intercepts: a `route` pauses every request for a round trip through the test process and turns the HTTP
 * cache off, so each page visit downloaded and compiled the app's scripts again (an admin sweep of 16 visits in one
 * theme: 17.1–17.5 → 14.8–15.3 CPU-s of the test and its browser, 29 Nov 2026). A request to another host is no
 * longer aborted; it still fails the test.
 */
export async function watchOtherHosts(context: BrowserContext, baseURL: string | undefined): Promise<string[]> {
  const own = new URL(baseURL ?? "http://127.0.0.1:3100").host;
  const foreign: string[] = [];
  context.on("request", (request) => {
    const url = new URL(request.url());
    if (
      (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "ws:" || url.protocol === "wss:") &&
      url.host !== own
    )
      foreign.push(url.href);
  });
  return foreign;
}
