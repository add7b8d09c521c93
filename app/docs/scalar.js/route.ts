/** Serves Scalar's self-contained browser bundle from the installed package, so /docs loads nothing from another host. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

export const runtime = "nodejs";

const BUNDLE = join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
let cached: Promise<Buffer> | undefined;

export async function GET(): Promise<Response> {
  cached ??= readFile(BUNDLE).catch((err) => {
    cached = undefined;
    throw err;
  });
  try {
    const body = await cached;
    return new Response(new Uint8Array(body), {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" },
    });
  } catch {
    return new Response("// the API reference bundle is not installed (npm ci)", {
      status: 503,
      headers: { "content-type": "text/javascript" },
    });
  }
}
