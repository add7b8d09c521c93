/**
 * Screenshots for people to look at (docs/testing.md, "Screenshots"): taken when E2E_SCREENSHOTS=on, skipped otherwise.
 * No spec reads them back; a full-page capture at 1280 and 375 px in both themes is most of the axe sweeps' Chromium time,
 * so the test loop leaves them out and `npm run e2e:screenshots` takes them all.
 */
import type { Locator, Page } from "@playwright/test";

export const screenshotsOn = process.env.E2E_SCREENSHOTS === "on";

type Options = NonNullable<Parameters<Page["screenshot"]>[0]>;

/** `target.screenshot(options)` when screenshots are on; nothing otherwise. */
export async function screenshot(target: Page | Locator, options: Options): Promise<void> {
  if (screenshotsOn) await target.screenshot(options);
}
