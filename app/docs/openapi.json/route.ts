/**
 * The OpenAPI document the /docs viewer (Scalar) renders: the API's own document (GET /api/v1/openapi.json, built from
 * the same route table) with `x-codeSamples` on each operation: curl, the TypeScript client and the Python client, from
 * clients/snippets, against the address the page was reached on.
 */
import { withCodeSamples } from "@/clients/snippets/reference";
import { baseUrl } from "@/components/base-url";
import { buildOpenApi } from "@/lib/api/openapi";
import { allRoutes } from "@/lib/api/routes";
import { BoundedMemo } from "@/lib/util/bounded-memo";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

let built: ReturnType<typeof buildOpenApi> | undefined;
/** The document's text per origin (a few in practice: localhost, the public host). */
const byOrigin = new BoundedMemo<string, string>(16);
const render = (origin: string) => {
  built ??= buildOpenApi(allRoutes);
  return JSON.stringify(withCodeSamples(built, origin));
};

export async function GET(): Promise<Response> {
  return new Response(byOrigin.get(await baseUrl(), render), {
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
  });
}
