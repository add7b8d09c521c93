/**
 * The request metrics around the gateway's handler (lib/metrics/registry.ts): one observation per call, labelled by the
 * route family the pipeline noted (none: no route matched, or a CORS preflight) and the answer's status class.
 */
import { metrics } from "../metrics/registry";
import { servedFacts } from "./served-facts";

type Handle = (request: Request) => Promise<Response>;

export function withRequestMetrics(handle: Handle): Handle {
  return async (request) => {
    const started = performance.now();
    let status = 500; // a handler that throws is answered 500 by the server around it
    try {
      const response = await handle(request);
      status = response.status;
      return response;
    } finally {
      metrics.request(servedFacts(request).family ?? "none", status, (performance.now() - started) / 1000);
    }
  };
}
