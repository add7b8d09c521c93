/** Fails (aborts) every request to a host other than the app's own, and reports which ones were tried. */
import type { BrowserContext } from "@playwright/test";

export async function blockOtherHosts(context: BrowserContext, baseURL: string | undefined): Promise<string[]> {
  const own = new URL(baseURL ?? "http://127.0.0.1:3100").host;
  const foreign: string[] = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.host === own) return route.continue();
    foreign.push(url.href);
    return route.abort("blockedbyclient");
  });
  return foreign;
}
