/** How each area's metrics are made (lib/metrics/registry.ts): prom-client's, registered on the process's registry. */
import { Counter, Gauge, type GaugeConfiguration, Histogram, type Registry } from "prom-client";
import { FastHistogram } from "./fast-histogram";

/** Seconds, for what answers within a request: fine below 10 ms, where the API's latency targets are. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** How each area's metrics are made: registered on the process's registry. */
export interface Kit {
  registry: Registry;
  counter<L extends string>(name: string, help: string, labelNames?: L[]): Counter<L>;
  histogram<L extends string>(name: string, help: string, buckets: number[], labelNames?: L[]): Histogram<L>;
  gauge<L extends string>(spec: Omit<GaugeConfiguration<L>, "registers">): Gauge<L>;
  fastHistogram(name: string, help: string, buckets: number[]): FastHistogram;
}

export function kit(registry: Registry): Kit {
  const registers = [registry];
  return {
    registry,
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers }),
    histogram: (name, help, buckets, labelNames = []) => new Histogram({ name, help, buckets, labelNames, registers }),
    gauge: (spec) => new Gauge({ ...spec, registers }),
    fastHistogram(name, help, buckets) {
      const h = new FastHistogram({ name, help, buckets });
      registry.registerMetric(h.asMetric());
      return h;
    },
  };
}
