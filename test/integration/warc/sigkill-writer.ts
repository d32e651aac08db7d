/**
 * Child process for the crash test: writes `count` captures, prints their locations as one JSON
 * line once they are all on disk, then waits to be killed with SIGKILL (never closing).
 */
import { WarcWriter } from '../../../worker/warc';
import { htmlPage, makeExchange } from '../../unit/warc/make-exchange';

const [dir, count] = [process.argv[2], Number(process.argv[3])];
const writer = new WarcWriter({ dir, crawlId: 'crash', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test' });
await writer.open();
const locations = [];
for (let i = 0; i < count; i++) {
  locations.push(await writer.writeCapture(makeExchange({ url: `http://127.0.0.1:9/c/${i}`, body: htmlPage(1000 + i, 3000) })));
}
process.stdout.write(JSON.stringify(locations) + '\n');
setInterval(() => undefined, 1000);
