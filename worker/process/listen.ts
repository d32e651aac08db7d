import type { Server } from 'node:net';

/** What an archivist reads when a port cannot be listened on: the cause and the setting to change. */
export function explainListenError(err: NodeJS.ErrnoException, what: string, host: string, port: number, setting: string): string {
  const where = `${what} cannot listen on ${host}:${port}`;
  switch (err.code) {
    case 'EADDRINUSE':
      return `${where}: another program uses that port (is Tidemark already running?). Stop it, or choose another port with ${setting}=…`;
    case 'EACCES':
      return `${where}: not allowed (ports below 1024 need privileges). Choose another port with ${setting}=…`;
    case 'EADDRNOTAVAIL':
      return `${where}: ${host} is not an address of this machine. Set HOST to one of its addresses (127.0.0.1 by default)`;
    default:
      return `${where}: ${err.message}`;
  }
}

/** Listens on `host:port`, or rejects with explainListenError's message. */
export function listen(server: Server, what: string, host: string, port: number, setting: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException) => reject(new Error(explainListenError(err, what, host, port, setting)));
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      resolve();
    });
  });
}
