/**
 * Fixed-rate (open-loop) load, wrk2-style, for the per-call part (bench/percall.ts): request i is due at
 * t0 + i / rate whatever became of the requests before it, and its latency is counted from when it was due, so a stall
 * of the server shows in every request it delays (no coordinated omission). Requests go over keep-alive connections,
 * at most `connections` of them (node:http agent, opened as needed); a request due while all are busy waits in the
 * agent's queue and that wait is part of its latency. If the server cannot keep up, the achieved rate falls below the
 * offered one and the report says so.
 *
 * Not autocannon's `overallRate`: autocannon 9 spends each connection's share of the second back to back from the
 * start of the second and then idles (lib/httpClient.js, `reqsMadeThisSecond`), which is a burst at saturation every
 * second rather than a steady rate, and its coordinated-omission correction uses an expected interval of
 * ceil(1 / rate) = 1 ms.
 *
 * Reads its job as JSON from argv[2], prints one JSON result line on stdout.
 */
import http from "node:http";
import { percentile, summarizeLatencies } from "./percall-math";

export interface OpenLoopJob {
  url: string;
  keys: string[];
  /** Requests per second offered. */
  rate: number;
  durationS: number;
  /** Keep-alive connections at most. */
  connections: number;
  timeoutS?: number;
  /** Seconds at the same rate before the measured window, over the same connections, not counted (default 1). */
  warmupS?: number;
}

export interface OpenLoopResult {
  tool: "open-loop";
  offeredRate: number;
  /** Requests sent (all that fell due). */
  sent: number;
  /** Answers received (2xx or not) over the time from the first request due to the last answer. */
  requests: number;
  achievedRate: number;
  p50Ms: number;
  p99Ms: number;
  p99_9Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The most requests in flight at once (sent and not answered, or waiting for a connection). */
  peakInFlight: number;
  /**
   * How late the generator itself sent requests (send time − due time), p50 and p99: its timer granularity (≈ 1 ms)
   * plus any stall of its own process or of the machine; a part of every latency above that the server did not cause.
   */
  sendLagP50Ms: number;
  sendLagP99Ms: number;
  generatorCores: number;
  /** Answers during the warm-up before the measured window (the server metered those too). */
  warmupRequests?: number;
}

/** One paced phase over `agent`: sends rate × durationS requests on schedule and waits for every answer (bounded). */
function phase(job: OpenLoopJob, agent: http.Agent, durationS: number): Promise<OpenLoopResult> {
  const total = Math.max(1, Math.round(job.rate * durationS));
  const intervalMs = 1000 / job.rate;
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  const timeoutMs = (job.timeoutS ?? 10) * 1000;
  let answered = 0;
  let sent = 0;
  let settled = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let lastAnswer = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now() + 20;

  return new Promise((resolve) => {
    let over = false;
    const done = (force = false) => {
      if (over || (settled < total && !force)) return;
      over = true;
      clearTimeout(deadline);
      const cpu = process.cpuUsage(cpu0);
      const sortedLags = lags.subarray(0, sent).sort();
      const seconds = Math.max((lastAnswer - t0) / 1000, durationS * 0.5);
      resolve({
        tool: "open-loop",
        offeredRate: job.rate,
        sent,
        requests: answered,
        achievedRate: answered / seconds,
        ...summarizeLatencies(latencies.subarray(0, answered)),
        non2xx,
        errors,
        timeouts,
        peakInFlight,
        sendLagP50Ms: percentile(sortedLags, 50),
        sendLagP99Ms: percentile(sortedLags, 99),
        generatorCores: (cpu.user + cpu.system) / 1000 / (performance.now() - t0),
      });
    };
    const send = (i: number) => {
      const due = t0 + i * intervalMs;
      lags[i] = performance.now() - due;
      inFlight++;
      if (inFlight > peakInFlight) peakInFlight = inFlight;
      let finished = false;
      let timedOut = false;
      // Exactly once per request, whichever of the answer's end, an error or a close comes first.
      const finish = (answeredAt?: number) => {
        if (finished) return;
        finished = true;
        if (answeredAt !== undefined) {
          lastAnswer = answeredAt;
          latencies[answered++] = answeredAt - due;
        } else if (!timedOut) errors++;
        inFlight--;
        settled++;
        done();
      };
      const headers: Record<string, string> = job.keys.length
        ? { authorization: `Bearer ${job.keys[i % job.keys.length]}` }
        : {};
      const req = http.get(job.url, { agent, headers }, (res) => {
        if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) non2xx++;
        res.resume();
        res.on("end", () => finish(performance.now()));
        res.on("error", () => finish());
        res.on("close", () => finish());
      });
      req.setTimeout(timeoutMs, () => {
        timedOut = true;
        timeouts++;
        req.destroy(new Error("timeout"));
      });
      req.on("error", () => finish());
    };
    const pump = () => {
      const due = Math.min(total, Math.floor((performance.now() - t0) / intervalMs) + 1);
      while (sent < due) send(sent++);
      if (sent < total) setTimeout(pump, 1);
    };
    setTimeout(pump, 20);
    // Requests still unanswered this long after the last one fell due count as neither answered nor failed: the
    // report shows sent > requests + errors + timeouts.
    const deadline = setTimeout(() => done(true), (durationS + (job.timeoutS ?? 10) + 5) * 1000);
  });
}

/**
 * Warm-up (opens the connections, warms both sides' code), then prints `start` on a line of its own when the measured
 * window begins (the orchestrator starts its CPU accounting there) and the result line when every answer is in.
 */
async function run(job: OpenLoopJob): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections, maxFreeSockets: job.connections });
  try {
    const warmup = (job.warmupS ?? 1) > 0 ? await phase(job, agent, job.warmupS ?? 1) : undefined;
    process.stdout.write("start\n");
    return { ...(await phase(job, agent, job.durationS)), warmupRequests: warmup?.requests ?? 0 };
  } finally {
    agent.destroy();
  }
}

const job = JSON.parse(process.argv[2]) as OpenLoopJob;
run(job).then(
  (r) => process.stdout.write(`${JSON.stringify(r)}\n`, () => process.exit(0)),
  (err) => {
    process.stderr.write(`${String(err?.stack ?? err)}\n`);
    process.exit(1);
  },
);
