/** A real SMTP server on loopback (`smtp-server`) that keeps every message it receives, for mail tests. */
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** Mail received so far, as the tests read it. */
export interface MailReader {
  readonly messages: ReceivedMail[];
  /** The first message to `to` (waits for it to arrive, up to `timeoutMs`). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
}

export interface Mailbox extends MailReader {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The first message to `to` among `read()`'s, polled until it arrives or `timeoutMs` passes. */
export async function waitForMail(read: () => ReceivedMail[], to: string, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = read();
    const found = messages.find((m) => m.to.includes(to.toLowerCase()));
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${messages.length} other(s))`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The body with quoted-printable soft breaks and escapes undone, so links read as sent. */
export function decodeBody(raw: string): string {
  const qp = /content-transfer-encoding:\s*quoted-printable/i.test(raw);
  return qp
    ? raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : raw;
}

/** The first http(s) link in a mail. */
export function linkIn(mail: ReceivedMail): string {
  const m = /https?:\/\/[^\s<>"]+/.exec(decodeBody(mail.raw));
  if (!m) throw new Error(`no link in mail:\n${mail.raw}`);
  return m[0];
}

/**
 * `holdMs`: the server keeps each message that long before accepting it (a slow mail server); `until`: it accepts
 * none before this promise settles (a mail server that answers only when the test says so).
 */
export async function startMailbox(
  port = 0,
  options: { holdMs?: number; until?: Promise<void> } = {},
): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const accept = () => {
          messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        };
        if (options.until) void options.until.then(accept);
        else if (options.holdMs) setTimeout(accept, options.holdMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    messages,
    waitFor: (to, timeoutMs) => waitForMail(() => messages, to, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
