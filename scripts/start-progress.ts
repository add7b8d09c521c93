/**
 * `npm start`'s progress lines: one per phase with its time, and a "still …" line every few seconds while a phase runs,
 * so a first start is never silent for long. Plain lines on stdout (the operator's console), not the JSON log.
 * The heartbeat runs on a worker thread writing to fd 1 itself: the demo market build keeps the main thread busy
 * for minutes at a time (measured: 331 s without a timer firing), so a main-thread timer would stay silent.
 */
import { Worker } from "node:worker_threads";

const HEARTBEAT_MS = 5_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const HEARTBEAT = `
const { workerData, parentPort } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const started = Date.now();
const timer = setInterval(() => {
  const s = ((Date.now() - started) / 1000).toFixed(1);
  writeSync(1, "  … " + workerData.name + ": still working (" + s + " s)\\n");
}, workerData.everyMs);
parentPort.once("message", () => { clearInterval(timer); parentPort.close(); });
`;

export async function phase<T>(name: string, run: () => Promise<T>, done?: (result: T) => string): Promise<T> {
  const started = performance.now();
  process.stdout.write(`▸ ${name}…\n`);
  const beat = new Worker(HEARTBEAT, { eval: true, workerData: { name, everyMs: HEARTBEAT_MS } });
  beat.unref();
  try {
    const result = await run();
    const detail = done ? `, ${done(result)}` : "";
    beat.postMessage("stop");
    process.stdout.write(`✓ ${name} in ${seconds(performance.now() - started)}${detail}\n`);
    return result;
  } catch (err) {
    beat.postMessage("stop");
    process.stdout.write(`✗ ${name} failed after ${seconds(performance.now() - started)}\n`);
    throw err;
  } finally {
    await beat.terminate();
  }
}
