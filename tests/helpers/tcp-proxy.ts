/**
 * A loopback TCP proxy a test can cut: while cut, bytes in both directions are held back (a network partition: the
 * sockets stay open, nothing arrives), and delivered when the link is restored. While refusing, it acts like a proxy
 * in front of a database that is down: open connections are closed, and a new one is accepted, its first bytes read,
 * and closed cleanly (no error on the client's side, as with docker's port forwarding).
 */
import { createConnection, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  cut(): void;
  refuse(): void;
  /** Ends a cut or a refusal. */
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let isCut = false;
  let refusing = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const forward = (from: Socket, to: Socket) =>
    from.on("data", (chunk) => (isCut ? held.push(() => to.write(chunk)) : to.write(chunk)));
  const server = createServer((client) => {
    if (refusing) {
      sockets.add(client);
      client.on("error", () => {});
      client.on("close", () => sockets.delete(client));
      client.once("data", () => client.end());
      return;
    }
    const upstream = createConnection(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      isCut = true;
    },
    refuse() {
      refusing = true;
      for (const s of sockets) s.end();
    },
    restore() {
      isCut = false;
      refusing = false;
      for (const send of held.splice(0)) send();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
