/**
 * The live stream's key re-checks: every second each open stream's key is judged again (through the pipeline's key
 * cache, which refreshes within 5 s), and the route's plan rule applied again; a stream its key or plan no longer
 * allows ends with that refusal as its final `error` event. A re-check that fails (the store briefly unreachable)
 * leaves the stream open until the next one.
 */
import { errorFields, log } from "../../log";
import type { Caller } from "../credentials";
import { ApiError } from "../errors";

/** What re-checking a stream's key answers: the caller as its key now stands, or why the stream must end. */
export type Recheck = () => Caller | ApiError | Promise<Caller | ApiError>;

/** What a re-check reads and updates of a stream. */
export interface Checked {
  caller: Caller;
  recheck: Recheck;
  /** The route's own plan rule. */
  allowed: (caller: Caller) => ApiError | null;
}

const RECHECK_MS = 1000;

/** Judges each stream once: a refused one is handed to `end`, an allowed one keeps its key's current caller. */
export async function recheckStreams<S extends Checked>(
  streams: Iterable<S>,
  end: (s: S, refusal: ApiError) => void,
): Promise<void> {
  await Promise.all(
    [...streams].map(async (s) => {
      let judged: Caller | ApiError;
      try {
        judged = await s.recheck();
      } catch {
        return; // the store is briefly unreachable: the stream goes on, the next second re-checks
      }
      const refusal = judged instanceof ApiError ? judged : s.allowed(judged);
      if (refusal) end(s, refusal);
      else if (!(judged instanceof ApiError)) s.caller = judged;
    }),
  );
}

/** Re-checks `streams()` every `everyMs` on its own timer, so that a slow re-check never holds back delivery. */
export class KeyChecks<S extends Checked> {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly streams: () => Iterable<S>,
    private readonly end: (s: S, refusal: ApiError) => void,
    private readonly everyMs = RECHECK_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  /** One pass over the streams; skipped while the previous one runs. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await recheckStreams(this.streams(), this.end);
    } catch (err) {
      log.error("stream re-check failed", errorFields(err));
    } finally {
      this.running = false;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
