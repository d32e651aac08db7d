// Type declarations for pako 1.x (it ships none): the streaming inflater, the one part used here.

declare module 'pako' {
  export interface InflateOptions {
    /** Size of the output chunks handed to onData (16 KB by default). */
    chunkSize?: number;
  }
  /** A zlib inflater (gzip and zlib headers detected) fed by push(), its output handed on as it goes. */
  export class Inflate {
    constructor(options?: InflateOptions);
    /**
     * Inflates `data`. `mode`: false for more to come, true for the last data, or a zlib flush
     * constant (2, Z_SYNC_FLUSH: hand on all output so far). Returns false once an error ended it.
     */
    push(data: Uint8Array, mode?: boolean | number): boolean;
    /** Called with each chunk of output; replaceable. */
    onData(chunk: Uint8Array): void;
    /** zlib's status once it ended: 0 for none. */
    err: number;
    /** The error's message. */
    msg: string;
    /** The stream ended: its end was reached, or an error, or the last data was pushed. */
    ended: boolean;
  }
  const pako: { Inflate: typeof Inflate };
  export default pako;
}
