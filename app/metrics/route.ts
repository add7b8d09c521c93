/** GET /metrics under `next start`: the same registry and token rule as the standalone server (lib/server/metrics-endpoint.ts). */
import { serveMetrics } from "@/lib/server/metrics-endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handle = (request: Request) => serveMetrics(request);

export { handle as GET, handle as HEAD };
