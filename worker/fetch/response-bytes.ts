import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The counter whose request undici is creating now, if any. */
let dispatching: ResponseBytes | null = null;
/** undici's request objects → their counters (requests of other dispatchers are not here). */
const counted = new WeakMap<object, ResponseBytes>();

/**
 * Counts the bytes one request's response brought on its connection, whatever became of it: a
 * connection cut before the response head was whole says how much of it came only so. undici's
 * errors do not: a closed socket's counts cover its whole life (earlier answers on a kept-alive
 * connection included), and a bare ECONNRESET has none. undici's diagnostics channels give the
 * socket each request's head is written to; the count is the socket's since then.
 */
export class ResponseBytes {
  private socket: Socket | null = null;
  private readBefore = 0;

  /** Runs undici's dispatch of the request: the one it creates meanwhile (synchronously) is counted here. */
  dispatch(run: () => void): void {
    dispatching = this;
    try {
      run();
    } finally {
      dispatching = null;
    }
  }

  /** Bytes read on the connection since the request's head was written to it; undefined if it never was. */
  received(): number | undefined {
    return this.socket ? this.socket.bytesRead - this.readBefore : undefined;
  }

  /** undici writes the head, maybe again on a fresh connection when the first failed before any answer. */
  private headWritten(socket: Socket): void {
    this.socket = socket;
    this.readBefore = socket.bytesRead;
  }

  static {
    subscribe('undici:request:create', (message) => {
      if (dispatching) counted.set((message as { request: object }).request, dispatching);
    });
    subscribe('undici:client:sendHeaders', (message) => {
      const { request, socket } = message as { request: object; socket: Socket };
      counted.get(request)?.headWritten(socket);
    });
  }
}
