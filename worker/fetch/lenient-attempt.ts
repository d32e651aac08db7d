import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { hostnameOf } from '../url/host';
import type { BodySinkOptions } from './body-sink';
import { ContentLengthRepair } from './content-length-repair';
import { runAttempt, type AttemptRequest, type AttemptResult, type Transport } from './fetch-attempt';
import type { RawHeaders } from './http-heads';

/**
 * One more attempt at a response undici's strict parser refused, through Node's own HTTP client
 * with its lenient parser (`insecureHTTPParser`), as Heritrix and wget read such servers. The
 * request is the one undici sent, byte for byte as the WARC request record has it (host,
 * connection, then the crawl's headers), on a connection of its own, closed after the response.
 * Lenient parsing is a risk for proxies that forward what they parse; here the bytes end in an
 * archive, and the crawl log says the response was read so.
 */
export async function lenientAttempt(
  req: AttemptRequest, sinkOptions: BodySinkOptions, opts: { rejectUnauthorized: boolean; maxHeaderSize: number }, interrupt?: AbortSignal,
): Promise<{ result: AttemptResult; note?: string }> {
  const repair = new ContentLengthRepair(opts.maxHeaderSize);
  const result = await runAttempt(req, sinkOptions, interrupt, nodeHttpTransport(req, opts, repair));
  const read = result.kind === 'exchange' ? result.exchange : result.partial;
  // What the crawl log says of the head besides: how the parser was helped, what the archive leaves out.
  const notes = [
    ...(repair.repaired ? ['its Content-Length, given more than once with one value, read as one'] : []),
    ...(read && read.headers['content-length'] !== undefined && read.headers['transfer-encoding'] !== undefined ? ['its Content-Length, beside Transfer-Encoding, which frames the body, left out of the archived head'] : []),
  ];
  return notes.length ? { result, note: notes.join(', ') } : { result };
}

function nodeHttpTransport(req: AttemptRequest, { rejectUnauthorized, maxHeaderSize }: { rejectUnauthorized: boolean; maxHeaderSize: number }, repair: ContentLengthRepair): Transport {
  return (events) => {
    const origin = new URL(req.origin);
    const secure = origin.protocol === 'https:';
    // The name for SNI: none for an IP address (an IPv6 one keeps its brackets in a URL's hostname).
    const hostname = hostnameOf(req.url);
    const servername = isIP(hostname) || hostname.startsWith('[') ? undefined : hostname;
    const port = Number(origin.port);
    const socket = secure
      ? tlsConnect({ host: req.ip, port, servername, rejectUnauthorized, ALPNProtocols: ['http/1.1'] })
      : netConnect({ host: req.ip, port });
    const options: RequestOptions = {
      method: 'GET',
      path: req.path,
      setHost: false,
      // As undici writes them (http-heads.ts buildRequestHead): the archived request head stays true.
      headers: ['host', req.host, 'connection', 'keep-alive', ...req.headers.flat()] as unknown as RequestOptions['headers'],
      insecureHTTPParser: true,
      maxHeaderSize,
      // No agent: the connection is this one, used once.
      createConnection: () => repairing(socket, repair),
    };
    const r: ClientRequest = httpRequest(options);
    const abort = (err: Error) => void r.destroy(err);
    socket.once(secure ? 'secureConnect' : 'connect', () => events.started(abort));
    let response: IncomingMessage | null = null;
    r.on('response', (res: IncomingMessage) => {
      response = res;
      events.response(res.statusCode ?? 0, res.statusMessage ?? '', repair.restore(res.rawHeaders as RawHeaders), res.httpVersion ? `HTTP/${res.httpVersion}` : undefined);
      res.on('data', (chunk: Buffer) => events.data(chunk));
      res.on('end', () => {
        events.end();
        r.destroy();
      });
      res.on('error', (err) => events.error(err));
      // A body cut short ends in 'close' without 'end' (and an 'error' on some versions).
      res.on('close', () => {
        if (!res.complete) events.error(Object.assign(new Error('the connection closed before the response ended'), { code: 'ECONNRESET' }));
      });
    });
    // A parse error in the body comes before the bytes parsed just ahead of it were emitted (the
    // response emits its first 'data' a tick after it is handed out): they came, and are kept.
    r.on('error', (err) => {
      while (response?.read() != null);
      events.error(err);
    });
    r.end();
    return { cancel: abort };
  };
}

/** The connection as the parser reads it: the bytes received, through `repair`. */
function repairing(socket: Socket, repair: ContentLengthRepair): Duplex {
  const stream: Duplex = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (err, done) => {
      socket.destroy(err ?? undefined);
      done(err);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    const bytes = repair.feed(chunk);
    if (bytes.length && !stream.push(bytes)) socket.pause();
  });
  socket.on('end', () => {
    const rest = repair.flush();
    if (rest.length) stream.push(rest);
    stream.push(null);
  });
  socket.on('error', (err) => stream.destroy(err));
  socket.on('close', () => void (stream.destroyed || stream.destroy()));
  return stream;
}
