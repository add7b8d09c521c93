/**
 * One of the stream benchmark's client processes (forked by bench/stream.ts, as a load generator runs apart from what
 * it reports to): opens its share of the streams, then counts the events arriving on each, on the raw bytes (every
 * event starts with "\nid: ", the stream opening with a comment line), into a histogram by arrival millisecond. Every
 * socket reads into one reused buffer and nothing is decoded or parsed past the response's head, so the client's own
 * work (and garbage) weighs as little as it can on the server's figure, as a C load generator's would.
 *
 * Messages from the parent: `{ start }`, then `{ expect: n }` (n events per open stream in all so far) before each
 * burst, and `"report"` at the end. To the parent: `{ opened, failed }` once every stream answered, `"done"` each time
 * every open stream received what was expected, and the report.
 */
import net from "node:net";

export interface ClientStart {
  url: string;
  /** One key per stream (the parent spreads the streams over its keys); empty strings for no authorization. */
  keys: string[];
}

export interface ClientReport {
  opened: number;
  delivered: number;
  bytes: number;
  /** Events by the wall-clock millisecond they arrived at (Date.now()), in time order. */
  arrivals: [number, number][];
}

const ID_LINE = Buffer.from("\nid: ");
const CARRY = ID_LINE.length - 1;
/** Arrival histogram: one counter per millisecond from the first stream's opening (10 minutes). */
const SPAN_MS = 600_000;

/** Events in `chunk` ("\nid: " occurrences), counting one that straddles from the previous chunks' last bytes. */
function counter() {
  const edge = Buffer.alloc(2 * CARRY);
  let carried = 0;
  return (chunk: Buffer): number => {
    let n = 0;
    if (carried) {
      // Only an occurrence that starts in the carried bytes and ends in this chunk is new here.
      const take = Math.min(CARRY, chunk.length);
      chunk.copy(edge, carried, 0, take);
      const joined = edge.subarray(0, carried + take);
      for (let at = joined.indexOf(ID_LINE); at >= 0 && at < carried; at = joined.indexOf(ID_LINE, at + 1)) n++;
      if (chunk.length < CARRY) {
        // Too short to hold an occurrence: the carried bytes become the last CARRY of both.
        const keep = Math.min(CARRY, joined.length);
        edge.copy(edge, 0, joined.length - keep, joined.length);
        carried = keep;
        return n;
      }
    }
    for (let at = chunk.indexOf(ID_LINE); at >= 0; at = chunk.indexOf(ID_LINE, at + ID_LINE.length)) n++;
    carried = Math.min(CARRY, chunk.length);
    chunk.copy(edge, 0, chunk.length - carried);
    return n;
  };
}

const HEAD_END = Buffer.from("\r\n\r\n");
/** Every socket reads into this one buffer: each read is counted at once, before the next (no allocation per read). */
const READ_BUFFER = Buffer.alloc(256 * 1024);

function run(start: ClientStart): void {
  const url = new URL(start.url);
  const base = Date.now();
  const histogram = new Uint32Array(SPAN_MS);
  let opened = 0;
  let answered = 0;
  let delivered = 0;
  let bytes = 0;
  let expected = Number.POSITIVE_INFINITY;
  const sockets: net.Socket[] = [];
  const send = (m: unknown) => process.send?.(m);
  const answer = () => {
    if (++answered === start.keys.length) send({ opened, failed: answered - opened });
  };
  for (const key of start.keys) {
    // HTTP/1.1 by hand over a socket: the response's head is checked, then its bytes (SSE in chunked framing, whose
    // size lines never hold "\nid: ") are counted as they come.
    let head: Buffer | null = Buffer.alloc(0);
    const count = counter();
    const read = (size: number): void => {
      let body: Buffer = READ_BUFFER.subarray(0, size);
      if (head) {
        head = Buffer.concat([head, body]);
        const end = head.indexOf(HEAD_END);
        if (end < 0) return;
        const ok = head.subarray(0, 13).toString("latin1") === "HTTP/1.1 200 ";
        body = head.subarray(end + HEAD_END.length);
        head = null;
        if (ok) opened++;
        answer();
        if (!ok) return void socket.destroy();
      }
      bytes += body.length;
      const n = count(body);
      if (!n) return;
      histogram[Math.min(SPAN_MS - 1, Date.now() - base)] += n;
      delivered += n;
      if (delivered === expected) send("done");
    };
    const socket = net.connect({
      host: url.hostname,
      port: Number(url.port),
      onread: {
        buffer: READ_BUFFER,
        callback: (size) => {
          read(size);
          return true;
        },
      },
    });
    sockets.push(socket);
    socket.on("error", () => {});
    socket.on("close", () => {
      if (head) {
        head = null;
        answer();
      }
    });
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `${key ? `Authorization: Bearer ${key}\r\n` : ""}Accept: text/event-stream\r\n\r\n`,
    );
  }
  process.on("message", (m: unknown) => {
    if (m && typeof m === "object" && "expect" in m) {
      expected = opened * (m as { expect: number }).expect;
      if (delivered === expected) send("done");
    } else if (m === "report") {
      const arrivals: [number, number][] = [];
      for (let i = 0; i < SPAN_MS; i++) if (histogram[i]) arrivals.push([base + i, histogram[i]]);
      const report: ClientReport = { opened, delivered, bytes, arrivals };
      for (const socket of sockets) socket.destroy();
      process.send?.(report, () => process.exit(0));
    }
  });
}

process.once("message", (m: { start?: ClientStart }) => {
  if (m.start) run(m.start);
});
