import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The counter whose request undici is creating now, if any. */
let dispatching: ResponseBytes | null = null;
/** undici's request objects → their counters (requests of other dispatchers are not here). */
const counted = new WeakMap<object, ResponseBytes>();

/** The most bytes of a response kept for its head: more than any head undici takes (fetcher.ts MAX_HEADER_BYTES). */
const KEPT_FOR_HEAD = 1024 * 1024;

/**
 * Counts the bytes one request's response brought on its connection, whatever became of it: a
 * connection cut before the response head was whole says how much of it came only so. undici's
 * errors do not: a closed socket's counts cover its whole life (earlier answers on a kept-alive
 * connection included), and a bare ECONNRESET has none. undici's diagnostics channels give the
 * socket each request's head is written to; the count is the socket's since then.
 *
 * It also keeps the bytes undici reads until the final head is read (`stopKeeping`), for what
 * undici does not hand out as received: the HTTP version and the reason phrase (statusLineOf), and
 * what in a head stopped its parser after a Content-Length (contentLengthFault). A 'data' listener
 * beside undici's 'readable' one sees each chunk undici reads, and changes nothing of the flow.
 */
export class ResponseBytes {
  private socket: Socket | null = null;
  private readBefore = 0;
  private kept: Buffer[] = [];
  private keptLength = 0;
  private readonly keep = (chunk: Buffer) => {
    this.kept.push(chunk);
    this.keptLength += chunk.length;
    if (this.keptLength > KEPT_FOR_HEAD) this.stopKeeping();
  };

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

  /** The bytes of the response read so far (all of its head once undici has read it; none past KEPT_FOR_HEAD). */
  receivedBytes(): Buffer {
    // Asked for every response (its status line): most heads came in one read, which needs no copy.
    return this.kept.length === 1 ? this.kept[0]! : Buffer.concat(this.kept, this.keptLength);
  }

  /** The final head was read, or the request failed: nothing more to keep. */
  stopKeeping(): void {
    this.socket?.removeListener('data', this.keep);
    this.kept = [];
    this.keptLength = 0;
  }

  /** undici writes the head, maybe again on a fresh connection when the first failed before any answer. */
  private headWritten(socket: Socket): void {
    this.stopKeeping();
    this.socket = socket;
    this.readBefore = socket.bytesRead;
    socket.on('data', this.keep);
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
