/**
 * An in-process queue for mail whose sending must not show in the caller's answer time (password reset: a known address
 * would otherwise answer slower than an unknown one). Jobs run one after another; a failure is logged, never thrown.
 */
import { errorFields, log } from "../log";

type Job = { name: string; run: () => Promise<unknown> };

const jobs: Job[] = [];
let running: Promise<void> | null = null;

export function enqueueMail(name: string, run: () => Promise<unknown>): void {
  jobs.push({ name, run });
  running ??= drain().finally(() => {
    running = null;
  });
}

async function drain(): Promise<void> {
  for (let job = jobs.shift(); job; job = jobs.shift()) {
    try {
      await job.run();
    } catch (err) {
      log.error("queued mail failed", { job: job.name, ...errorFields(err) });
    }
  }
}

/** Resolves once every queued mail has been tried (tests, shutdown). */
export async function mailQueueIdle(): Promise<void> {
  while (running) await running;
}
