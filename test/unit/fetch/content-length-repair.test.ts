import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ContentLengthRepair } from '../../../worker/fetch/content-length-repair';

/** What the parser reads when `wire` arrives in `sizes`-byte pieces, and the repair that made it. */
function feedInPieces(wire: string, size: number, maxHeadBytes = 64 * 1024): { read: string; repair: ContentLengthRepair } {
  const repair = new ContentLengthRepair(maxHeadBytes);
  const bytes = Buffer.from(wire, 'latin1');
  const read: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) read.push(repair.feed(bytes.subarray(i, i + size)));
  read.push(repair.flush());
  return { read: Buffer.concat(read).toString('latin1'), repair };
}

/** Raw headers as a parser gives them for a response's head (one pair a line; no folding in these cases). */
function rawHeadersOf(response: string): string[] {
  const head = response.slice(0, /\r?\n\r?\n/.exec(response)!.index);
  return head.split(/\r?\n/).slice(1).flatMap((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
}

test('one length given twice: the parser reads one line, the raw headers come back as received', () => {
  const head = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nDate: today\r\ncontent-length:5 \r\n\r\n';
  for (const size of [1, 7, 1000]) {
    const { read, repair } = feedInPieces(`${head}hello`, size);
    assert.equal(read, 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nDate: today\r\n\r\nhello', `pieces of ${size}`);
    assert.ok(repair.repaired);
    assert.deepEqual(repair.restore(rawHeadersOf(read)), ['Content-Length', '5', 'Date', 'today', 'content-length', '5']);
  }
});

test('a list of one length (42, 42) is read as 42 and archived as the list; bare LF line ends too', () => {
  const { read, repair } = feedInPieces('HTTP/1.1 200 OK\nX-A: 1\nContent-Length: 2, 2\nX-B: 2\n\nok', 3);
  assert.equal(read, 'HTTP/1.1 200 OK\nX-A: 1\nContent-Length: 2\nX-B: 2\n\nok');
  assert.deepEqual(repair.restore(rawHeadersOf(read)), ['X-A', '1', 'Content-Length', '2, 2', 'X-B', '2']);
});

test('differing lengths, a single length, a malformed one: the head goes through as it is', () => {
  for (const head of [
    'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 5, 7\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: five\r\nContent-Length: five\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n',
  ]) {
    const { read, repair } = feedInPieces(`${head}hello`, 4);
    assert.equal(read, `${head}hello`);
    assert.equal(repair.repaired, false);
    const raw = rawHeadersOf(head);
    assert.equal(repair.restore(raw), raw);
  }
});

test('an interim 100 Continue goes through, the final head after it is repaired; the body is never read as a head', () => {
  const wire = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 25\r\nContent-Length: 25\r\n\r\nContent-Length: 9\r\n\r\nbody';
  const { read } = feedInPieces(wire, 5);
  assert.equal(read, 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 25\r\n\r\nContent-Length: 9\r\n\r\nbody');
});

test('a head that never ends within the limit is passed on whole, and so is one cut by the end of the connection', () => {
  const endless = `HTTP/1.1 200 OK\r\n${'X-Filler: abcdefgh\r\n'.repeat(20)}`;
  const { read, repair } = feedInPieces(endless, 16, 100);
  assert.equal(read, endless);
  assert.equal(repair.repaired, false);
  const cut = new ContentLengthRepair(1000);
  assert.equal(cut.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Len')).length, 0, 'held until the head is whole');
  assert.equal(cut.flush().toString('latin1'), 'HTTP/1.1 200 OK\r\nContent-Len');
});

test('raw headers not line for line (a folded line read as one): the lines left out go back after the one read', () => {
  const { read, repair } = feedInPieces('HTTP/1.1 200 OK\r\nX-Folded: a\r\n  b\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok', 1000);
  assert.equal(read, 'HTTP/1.1 200 OK\r\nX-Folded: a\r\n  b\r\nContent-Length: 2\r\n\r\nok');
  assert.deepEqual(repair.restore(['X-Folded', 'a  b', 'Content-Length', '2']), ['X-Folded', 'a  b', 'Content-Length', '2', 'Content-Length', '2']);
});

test('a long head trickled in byte by byte (a slow server) is read whole, its repeated length given once', () => {
  const filler = 'X-Filler: abcdefgh\r\n'.repeat(10_000);
  const { read } = feedInPieces(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${filler}Content-Length: 2\r\n\r\nok`, 1, 256 * 1024);
  assert.equal(read, `HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${filler}\r\nok`);
});
