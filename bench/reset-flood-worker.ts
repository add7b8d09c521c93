/**
 * The reset flood's generator, in a process of its own (bench/reset-flood.ts): keeps `flood` bogus password-reset
 * completions in flight against `base` until SIGTERM, then prints {requests, statuses} as JSON. Apart from the timed
 * sign-ins, so that their latency is the server's and not this loop's: one event loop running 300 requests in a
 * circle delays every other request it makes by far more than the server does.
 * Usage: tsx bench/reset-flood-worker.ts '{"base":"http://127.0.0.1:3000","flood":300}'
 */
import { randomBytes } from "node:crypto";

const { base, flood } = JSON.parse(process.argv[2] ?? "{}") as { base: string; flood: number };
let done = false;
const statuses: Record<string, number> = {};
let requests = 0;

async function worker(): Promise<void> {
  while (!done) {
    const status = await fetch(`${base}/api/portal/password-reset/complete`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ token: randomBytes(32).toString("base64url"), password: randomBytes(12).toString("hex") }),
    })
      .then(async (r) => {
        await r.arrayBuffer();
        return String(r.status);
      })
      .catch(() => "error");
    requests++;
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
}

const workers = Promise.all(Array.from({ length: flood }, worker));
process.stdout.write("started\n");
process.once("SIGTERM", () => {
  done = true;
  void workers.then(() => {
    process.stdout.write(`${JSON.stringify({ requests, statuses })}\n`);
    process.exit(0);
  });
});
