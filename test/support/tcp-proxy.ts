import net from 'node:net';

export interface TcpProxy {
  /** `redis://` URL of the proxy's local end. */
  url: string;
  /** Drops every connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
}

/**
 * Forwards 127.0.0.1:<port> to `target` on this machine, to cut a client off a server (Redis)
 * without stopping it. `onCleanup` receives what closes the proxy and its connections.
 */
export async function tcpProxy(target: number, onCleanup: (cleanup: () => Promise<void> | void) => void): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect({ port: target, host: '127.0.0.1' });
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  onCleanup(() => new Promise<void>((done) => server.close(() => done())));
  onCleanup(() => sockets.forEach((s) => s.destroy()));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
  };
}
