/**
 * The load generator when wrk is not installed: autocannon in its own process (so it does not share the
 * orchestrator's event loop). Reads its job as JSON from argv[2], prints one JSON result line on stdout.
 */
import autocannon from "autocannon";

interface Job {
  url: string;
  keys: string[];
  connections: number;
  durationS: number;
  warmupS: number;
}

const job = JSON.parse(process.argv[2]) as Job;

function run(durationS: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: job.url,
    connections: job.connections,
    duration: durationS,
    timeout: 10,
    // One key per connection, round-robin: spreads the counter rows the limits statement increments.
    setupClient: (client) => {
      if (job.keys.length) client.setHeaders({ authorization: `Bearer ${job.keys[next++ % job.keys.length]}` });
    },
  });
}

async function main() {
  if (job.warmupS > 0) await run(job.warmupS);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run(job.durationS);
  const cpu = process.cpuUsage(cpu0);
  const completed = r.requests.total;
  process.stdout.write(
    JSON.stringify({
      tool: "autocannon",
      requests: completed,
      reqPerSec: completed / (r.duration || job.durationS),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      p99_9Ms: r.latency.p99_9,
      non2xx: r.non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      generatorCores: (cpu.user + cpu.system) / 1000 / (performance.now() - t0),
    }) + "\n",
  );
}

main().catch((err) => {
  process.stderr.write(String(err?.stack ?? err) + "\n");
  process.exit(1);
});
