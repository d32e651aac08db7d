/**
 * Each WARC file's warcinfo record says who made the capture and what it is (Heritrix's warcinfo
 * fields): the ICD's warc.operator and description, its name as isPartOf; left out when empty.
 * Read back with warcio. Real parts: the engine crawling a loopback site into a migrated database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WARCParser } from 'warcio';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

async function warcinfoOf(warcDir: string): Promise<Record<string, string>> {
  const file = readdirSync(warcDir).find((n) => n.endsWith('.warc.gz'))!;
  for await (const record of new WARCParser(createReadStream(join(warcDir, file)), { parseHttp: false })) {
    assert.equal(record.warcType, 'warcinfo', 'the file begins with its warcinfo');
    const text = Buffer.from(await record.readFully(false)).toString('utf8');
    return Object.fromEntries(text.split('\r\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
  }
  throw new Error('no record');
}

const site = (_req: unknown, res: import('node:http').ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Harbour</title>');

for (const [title, fields, expected] of [
  ['operator and description given', { warc: { operator: '  Harbour Library web archive, archive@example.org ' }, description: 'Weekly capture\nof the harbour site' },
    { operator: 'Harbour Library web archive, archive@example.org', description: 'Weekly capture of the harbour site' }],
  ['neither given', {}, { operator: undefined, description: undefined }],
] as const) {
  test(`warcinfo: ${title}`, { timeout: 30_000 }, async () => {
    await withSiteCrawl('tm-warcinfo-', site, { name: 'Harbour weekly', ...fields }, async ({ dir, db, icd, crawlId }) => {
      const warcDir = join(dir, 'warcs');
      assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
      const info = await warcinfoOf(warcDir);
      assert.equal(info.operator, expected.operator);
      assert.equal(info.description, expected.description);
      assert.equal(info.isPartOf, 'Harbour weekly');
    });
  });
}
