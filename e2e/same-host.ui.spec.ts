/** The helper the page specs use to show they load nothing from another host (e2e/helpers/same-host.ts) sees such a load. */
import { expect, test } from "@playwright/test";
import { watchOtherHosts } from "./helpers/same-host";

test("a request to another host is recorded; the app's own are not", async ({ page, context, baseURL }) => {
  const foreign = await watchOtherHosts(context, baseURL);
  await page.goto("/pricing");
  expect(foreign).toEqual([]);
  // 192.0.2.0/24 is TEST-NET-1: documentation only, never routed.
  await page.evaluate(() => {
    const img = document.createElement("img");
    img.src = "http://192.0.2.1/pixel.png";
    document.body.append(img);
  });
  await expect.poll(() => foreign).toEqual(["http://192.0.2.1/pixel.png"]);
});
