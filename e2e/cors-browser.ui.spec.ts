/**
 * CORS in a real browser (docs/api-contract.md §11): a page on a second loopback origin, listed under "Allowed browser
 * origins" on the API Keys page, calls the API with the TypeScript client and gets 200; a page on an unlisted origin
 * is refused by the browser itself.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { expect, test, type Page } from "@playwright/test";
import { signUpAndSignIn } from "../tests/helpers/portal";

const servers: Server[] = [];

/** A static site on its own loopback port: a blank page and the client bundled for browsers. */
async function site(bundle: string): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === "/client.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
      return;
    }
    res
      .writeHead(200, { "content-type": "text/html" })
      .end('<!doctype html><html lang="en"><title>other origin</title><script src="/client.js"></script></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

/** The client's answer to getTickerSummary from the page: the status, or the client's error code. */
const callFromPage = (page: Page, baseUrl: string, apiKey: string) =>
  page.evaluate(
    async ({ baseUrl, apiKey }) => {
      const lib = (globalThis as unknown as { OptionsResearch: typeof import("../clients/typescript/src/index") })
        .OptionsResearch;
      const client = lib.createClient({ apiKey, baseUrl, maxRetries: 0 });
      try {
        return (await client.getTickerSummary({ symbol: "AAPL" })).status;
      } catch (err) {
        return (err as { code?: string }).code ?? String(err);
      }
    },
    { baseUrl, apiKey },
  );

test("a listed origin's page gets 200 through the TypeScript client; an unlisted origin is refused by the browser", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000); // sign-up, the keys page, an esbuild bundle and a poll of up to 15 s on a shared machine
  const bundled = await build({
    entryPoints: ["clients/typescript/src/index.ts"],
    bundle: true,
    format: "iife",
    globalName: "OptionsResearch",
    platform: "browser",
    write: false,
  });
  const bundle = bundled.outputFiles[0].text;
  const listed = await site(bundle);
  const unlisted = await site(bundle);

  await signUpAndSignIn(page.request, baseURL);
  await page.goto("/dashboard/keys");
  await page.getByLabel("Name").fill("browser key");
  await page.getByLabel("Test", { exact: false }).first().check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByTestId("new-key").inputValue();
  await page.getByRole("button", { name: "I have saved the key" }).click();
  await page.getByRole("textbox", { name: "Origins" }).fill(`${listed}\n`);
  await page.getByRole("button", { name: "Save origins" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 origin." })).toBeVisible();

  const other = await context.newPage();
  await other.goto(`${listed}/`);
  // the API re-reads the account's origins within CONFIG_CACHE_TTL_MS (≤ 5 s)
  await expect.poll(() => callFromPage(other, baseURL!, key), { timeout: 15_000 }).toBe(200);

  const stranger = await context.newPage();
  const blocked: string[] = [];
  stranger.on("console", (m) => {
    if (/CORS policy/.test(m.text())) blocked.push(m.text());
  });
  await stranger.goto(`${unlisted}/`);
  expect(await callFromPage(stranger, baseURL!, key)).toBe("connection_error");
  expect(blocked.join("\n")).toMatch(/has been blocked by CORS policy/);
});
