import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostnameOf } from '../url/host';
import type { BodySinkOptions } from './body-sink';
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
export function lenientAttempt(
  req: AttemptRequest, sinkOptions: BodySinkOptions, opts: { rejectUnauthorized: boolean; maxHeaderSize: number }, interrupt?: AbortSignal,
): Promise<AttemptResult> {
  return runAttempt(req, sinkOptions, interrupt, nodeHttpTransport(req, opts));
}

function nodeHttpTransport(req: AttemptRequest, { rejectUnauthorized, maxHeaderSize }: { rejectUnauthorized: boolean; maxHeaderSize: number }): Transport {
  return (events) => {
    const origin = new URL(req.origin);
    const secure = origin.protocol === 'https:';
    // The name for SNI: none for an IP address (an IPv6 one keeps its brackets in a URL's hostname).
    const hostname = hostnameOf(req.url);
    const servername = isIP(hostname) || hostname.startsWith('[') ? undefined : hostname;
    const options: RequestOptions & { servername?: string; rejectUnauthorized?: boolean; ALPNProtocols?: string[] } = {
      host: req.ip,
      port: Number(origin.port),
      method: 'GET',
      path: req.path,
      setHost: false,
      // As undici writes them (http-heads.ts buildRequestHead): the archived request head stays true.
      headers: ['host', req.host, 'connection', 'keep-alive', ...req.headers.flat()] as unknown as RequestOptions['headers'],
      insecureHTTPParser: true,
      maxHeaderSize,
      agent: false,
      ...(secure ? { servername, rejectUnauthorized, ALPNProtocols: ['http/1.1'] } : {}),
    };
    const r: ClientRequest = (secure ? httpsRequest : httpRequest)(options);
    const abort = (err: Error) => void r.destroy(err);
    r.on('socket', (socket) => {
      const go = () => events.started(abort);
      if (socket.connecting) socket.once(secure ? 'secureConnect' : 'connect', go);
      else go();
    });
    r.on('response', (res: IncomingMessage) => {
      events.response(res.statusCode ?? 0, res.statusMessage ?? '', res.rawHeaders as RawHeaders);
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
    r.on('error', (err) => events.error(err));
    r.end();
    return { cancel: abort };
  };
}
