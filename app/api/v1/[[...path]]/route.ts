/** Mounts the Web-standard API pipeline under /api/v1 in Next.js; the same pipeline serves `npm run start:api`. */
import { sharedGateway } from "@/lib/server/gateway";
import { unavailableResponse } from "@/lib/server/unavailable";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

async function handle(request: Request): Promise<Response> {
  let gateway: Awaited<ReturnType<typeof sharedGateway>>;
  try {
    gateway = await sharedGateway();
  } catch (err) {
    return unavailableResponse(err);
  }
  return gateway.handle(request);
}

export {
  handle as GET,
  handle as POST,
  handle as PUT,
  handle as PATCH,
  handle as DELETE,
  handle as OPTIONS,
  handle as HEAD,
};
