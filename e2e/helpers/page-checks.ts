/** Layout checks the shell specs share. */
import type { Page } from "@playwright/test";

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
