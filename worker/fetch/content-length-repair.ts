import { headEnd, type RawHeaders } from './http-heads';

/**
 * A response head whose Content-Length is given more than once with one value (two lines, or a
 * list such as `Content-Length: 42, 42`), which RFC 9110 §8.6 lets a recipient read as one value
 * and browsers do, but llhttp refuses even with its lenient flags. This sits between the socket and
 * the lenient parser (lenient-attempt.ts): it hands the parser the final head with one plain
 * Content-Length line, passes every other byte through, and gives the parser's raw headers back
 * as they were on the wire (`restore`), so the archived head stays true. Differing values are left
 * alone: where such a body ends is unknown, and the parser refuses it.
 */
export class ContentLengthRepair {
  /** Bytes of the head not yet whole: the first `heldLength` of `held`, grown by doubling. */
  private held: Buffer = Buffer.alloc(0);
  private heldLength = 0;
  /** How far `held` was searched for the head's end: a head trickled in byte by byte costs linear time. */
  private searched = 0;
  private passing = false;
  /**
   * The final head's Content-Length lines as received, by their place among its fields, where the
   * parser was given another (`given`: the value it read instead; none: the line was left out).
   */
  private readonly changed = new Map<number, { name: string; value: string; given?: string }>();
  private fieldCount = 0;

  /** `maxHeadBytes`: past this without a whole head, bytes are passed on as they are (the parser then refuses the head). */
  constructor(private readonly maxHeadBytes: number) {}

  /** What the parser should read for `chunk`: nothing yet while a head is incomplete. */
  feed(chunk: Buffer): Buffer {
    if (this.passing) return chunk;
    this.hold(chunk);
    const out: Buffer[] = [];
    for (;;) {
      const bytes = this.held.subarray(0, this.heldLength);
      const end = headEnd(bytes, Math.max(0, this.searched - 2));
      if (end < 0) {
        this.searched = this.heldLength;
        if (this.heldLength > this.maxHeadBytes) out.push(this.flush());
        break;
      }
      const head = bytes.subarray(0, end).toString('latin1');
      const rest = Buffer.from(bytes.subarray(end));
      this.heldLength = 0;
      this.searched = 0;
      // An interim response (100 Continue, 103 Early Hints) goes through as it is; the final head follows.
      const interim = /^HTTP\/\d\.\d[ \t]+1\d\d(?!\d)/.test(head) && !/^HTTP\/\d\.\d[ \t]+101/.test(head);
      out.push(Buffer.from(interim ? head : this.repair(head), 'latin1'));
      if (!interim) {
        this.passing = true;
        out.push(rest);
        break;
      }
      this.hold(rest);
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }

  /** The bytes held back, from now on passed as they come (the connection ended, or the head is too long). */
  flush(): Buffer {
    const rest = Buffer.from(this.held.subarray(0, this.heldLength));
    this.held = Buffer.alloc(0);
    this.heldLength = 0;
    this.passing = true;
    return rest;
  }

  private hold(chunk: Buffer): void {
    if (this.heldLength + chunk.length > this.held.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.held.length * 2, this.heldLength + chunk.length, 4096));
      this.held.copy(grown, 0, 0, this.heldLength);
      this.held = grown;
    }
    chunk.copy(this.held, this.heldLength);
    this.heldLength += chunk.length;
  }

  /** Whether the head was changed for the parser. */
  get repaired(): boolean {
    return this.changed.size > 0;
  }

  /** The parser's raw headers with the Content-Length lines as they were received, in their places. */
  restore(rawHeaders: RawHeaders): RawHeaders {
    if (!this.repaired) return rawHeaders;
    const changes = [...this.changed];
    const asReceived = ({ name, value }: { name: string; value: string }) => [name, value];
    const out: (Buffer | string)[] = [];
    if (rawHeaders.length === (this.fieldCount - changes.filter(([, c]) => c.given === undefined).length) * 2) {
      for (let i = 0, next = 0; i < this.fieldCount; i++) {
        const change = this.changed.get(i);
        if (change) out.push(...asReceived(change));
        else out.push(rawHeaders[next]!, rawHeaders[next + 1]!);
        if (!change || change.given !== undefined) next += 2;
      }
      return out;
    }
    // A folded line is one field to the parser and two here: the lines left out then go right after
    // the one the parser read, in their order.
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      if (!/^content-length$/i.test(String(rawHeaders[i]))) {
        out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
        continue;
      }
      const read = changes.find(([, c]) => c.given !== undefined)?.[1];
      out.push(...(read ? asReceived(read) : [rawHeaders[i]!, rawHeaders[i + 1]!]));
      for (const [, c] of changes) if (c.given === undefined) out.push(...asReceived(c));
    }
    return out;
  }

  /** The head with its repeated Content-Length given once, or as it is. */
  private repair(head: string): string {
    const lines = head.split('\n');
    const out: string[] = [lines[0]!];
    const changed = new Map<number, { name: string; value: string; given?: string }>();
    let length: string | undefined;
    let field = -1;
    for (const line of lines.slice(1)) {
      if (!/^[ \t]/.test(line) && line.replace(/\r$/, '') !== '') field++;
      const m = /^(content-length)[ \t]*:[ \t]*(.*?)[ \t]*(\r?)$/i.exec(line);
      if (!m) {
        out.push(line);
        continue;
      }
      const [, name, value, cr] = m as unknown as [string, string, string, string];
      const values = value.split(',').map((v) => v.trim());
      const one = values.every((v) => /^\d+$/.test(v) && v === values[0]) ? values[0]! : undefined;
      if (one === undefined || (length !== undefined && one !== length)) return head; // differing: where the body ends is unknown
      if (length === undefined) {
        length = one;
        if (values.length > 1) changed.set(field, { name, value, given: one });
        out.push(values.length > 1 ? `${name}: ${one}${cr}` : line);
      } else {
        changed.set(field, { name, value });
      }
    }
    if (!changed.size) return head;
    this.fieldCount = field + 1;
    for (const [k, v] of changed) this.changed.set(k, v);
    return out.join('\n');
  }
}
