/** The slice of autocannon 9's programmatic API the benchmark uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Client {
      setHeaders(headers: Record<string, string>): void;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      headers?: Record<string, string>;
      setupClient?: (client: Client) => void;
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      p99_9: number;
      total: number;
    }
    interface Result {
      duration: number;
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
