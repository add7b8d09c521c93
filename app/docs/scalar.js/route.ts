/**
 * Serves Scalar's self-contained browser bundle, put in node_modules/.scalar/<version>/ by `npm ci`'s postinstall
 * (scripts/fetch-scalar.mjs, version and integrity pinned in package.json), so /docs loads nothing from another host.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import pkg from "@/package.json";

export const runtime = "nodejs";

const BUNDLE = join(process.cwd(), "node_modules", ".scalar", pkg.scalarBundle.version, "standalone.js");
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
    return new Response("// the API reference bundle is not installed (run `npm run postinstall`)", {
      status: 503,
      headers: { "content-type": "text/javascript" },
    });
  }
}
