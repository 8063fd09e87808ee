// A redis-server of a test's own, on a spare port, so a test can take Redis away (SIGKILL) and
// bring it back without touching the machine's shared one.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export interface RedisServer {
  url: string;
  /** Starts redis-server on the port (again); resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGKILL: no goodbye to its clients. */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Whether something on `port` answers a Redis PING. */
function pong(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      done(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => done(false));
  });
}

/** A redis-server (not started yet); `onCleanup` receives its `kill`, for the test's cleanups. */
export async function redisServer(onCleanup: (kill: () => Promise<void>) => void): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGKILL');
    await exited;
  };
  onCleanup(kill);
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      child = started;
      await eventually(`redis-server on ${port} answers`, async () => {
        if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
        return pong(port);
      });
    },
    kill,
  };
}

/** Polls `check` until it returns true (bounded); a poll, not a sleep-as-assertion. */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
