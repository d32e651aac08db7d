/**
 * Child process for the short-write test, run under a file-size limit (`ulimit -f`): writes
 * captures of incompressible bodies, one by one, until one is refused, and prints one JSON line:
 * how many were written, the refusal (message, code, whether the crawl would pause on it), and the
 * next capture's refusal. Then lets its files go as the engine does after a storage failure
 * (`abandon`, the default), or closes the writer (`close`: the refusal of the close, if any).
 */
import { randomBytes } from 'node:crypto';
import { WarcWriter, type CaptureLocation } from '../../../worker/warc';
import { isStorageFailure } from '../../../worker/store/storage-failure';
import { makeExchange } from '../../unit/warc/make-exchange';

const dir = process.argv[2]!;
const ending = process.argv[3] === 'close' ? 'close' : 'abandon';
const writer = new WarcWriter({ dir, crawlId: 'limited', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', gzipLevel: 0, threads: 1 });
await writer.open();
const describe = (err: unknown) => ({ message: (err as Error).message, code: (err as { code?: string }).code ?? null, storage: isStorageFailure(err) });
const written: CaptureLocation[] = [];
let refused = null;
for (let i = 0; i < 100 && !refused; i++) {
  try {
    written.push(await writer.writeCapture(makeExchange({ url: `http://127.0.0.1:9/c/${i}`, body: randomBytes(150_000 + 1_000 * i) })));
  } catch (err) {
    refused = describe(err);
  }
}
const next = await writer.writeCapture(makeExchange({ url: 'http://127.0.0.1:9/next', body: randomBytes(1000) })).then(() => null, describe);
const closed = ending === 'close' ? await writer.close().then(() => null, describe) : await writer.abandon();
process.stdout.write(JSON.stringify({ written, refused, next, closed }) + '\n');
