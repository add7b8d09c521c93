/** Layout checks the shell specs share. */
import { expect, type Locator, type Page } from "@playwright/test";

/** Elements in main that scroll sideways (tables and their frames), with the overflow in px: a table must fit its column. */
export const sidewaysScrollers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("main table, main [role=region], main pre, main table *")]
      .filter((el) => {
        const s = getComputedStyle(el);
        return /(auto|scroll)/.test(s.overflowX) && el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}: ${el.scrollWidth - el.clientWidth}px`),
  );

/**
 * What is cut off on the page: an element whose content is clipped or hidden sideways (overflow other than visible, or
 * an ellipsis, with more content than width), or that reaches past the window's right edge. Visually hidden text
 * (sr-only: 1 px, clipped) and elements not rendered are left out; `allow` names selectors that may scroll on purpose.
 */
export const cutOff = (page: Page, allow: string[] = []) =>
  page.evaluate((allowed) => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>("*")) {
      if (el.getClientRects().length === 0 || allowed.some((a) => el.matches(a))) continue;
      const s = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1 || s.visibility === "hidden" || s.position === "fixed") continue;
      if (el.closest("[aria-hidden=true]")) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
      const clips = s.overflowX !== "visible" || s.textOverflow === "ellipsis";
      if (clips && el.scrollWidth > el.clientWidth + 1)
        found.push(`${name}: ${el.scrollWidth - el.clientWidth}px hidden`);
      else if (box.right > width + 1 && el.textContent?.trim())
        found.push(`${name}: ${Math.round(box.right - width)}px past the edge`);
    }
    return found.slice(0, 10);
  }, allow);

/**
 * How long the API reference (Scalar, about 3 MB of script and the whole OpenAPI document) may take to render its first
 * heading. On a saturated 2-core CI runner it took over 20 s (28 Nov 2026); a rendering that never comes still fails.
 */
const REFERENCE_RENDER_MS = 45_000;

/** Waits (up to REFERENCE_RENDER_MS) until the API reference on the page shows its title; the title, for more checks. */
export async function referenceRendered(page: Page): Promise<Locator> {
  const title = page.getByTestId("scalar-reference").getByRole("heading", { name: "Options Market Research API" });
  await expect(title).toBeVisible({ timeout: REFERENCE_RENDER_MS });
  return title;
}
