import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_KB_PATH } from '../../../worker/aah/default-kb';
import { AahRunner } from '../../../worker/crawler/aah-runner';
import type { CrawlItem } from '../../../worker/crawler/stage';

/**
 * Older forums are often served in a legacy encoding (phpBB 2 and vBulletin 3 boards in
 * windows-1252 or Shift_JIS). The AAH must read the page in the charset the extractor reads it
 * in, or every accented letter of the Web objects it stores becomes U+FFFD.
 */
const topic = readFileSync(new URL('../../fixtures/aah/phpbb/viewtopic.html', import.meta.url), 'utf8')
  .replaceAll('shipwright', 'Jérôme')
  .replace('Which cotton do you use between the planks?', 'Crème brûlée über alles – 5 €?');
const URL_ = 'http://127.0.0.1/viewtopic.php?t=1';

function firstPost(body: Buffer, contentType: string): Record<string, string> {
  const runner = AahRunner.create(readFileSync(DEFAULT_KB_PATH, 'utf8'), 'keep');
  const item = { url: URL_, host: '127.0.0.1', exchange: { status: 200, headers: { 'content-type': contentType } }, html: body } as unknown as CrawlItem;
  const { verdict } = runner.analyse(item);
  assert.equal(verdict?.application, 'phpbb');
  return verdict!.objects[0]!.fields;
}

// windows-1252 bytes of a string whose characters all have one (TextEncoder only writes UTF-8).
function windows1252(text: string): Buffer {
  return Buffer.from(text.replace('€', '\x80').replace('–', '\x96'), 'latin1');
}

test('Web objects of a windows-1252 page named by its Content-Type keep their accented letters', () => {
  const fields = firstPost(windows1252(topic.replace('<meta charset="utf-8" />', '')), 'text/html; charset=windows-1252');
  assert.equal(fields.author, 'Jérôme');
  assert.match(fields.body, /^Crème brûlée über alles – 5 €\?/);
});

test('Web objects of a page whose <meta charset> names its encoding keep their accented letters', () => {
  const fields = firstPost(windows1252(topic.replace('<meta charset="utf-8" />', '<meta charset="iso-8859-1">')), 'text/html');
  assert.equal(fields.author, 'Jérôme');
});

test('a UTF-8 page is read as UTF-8', () => {
  assert.equal(firstPost(Buffer.from(topic), 'text/html').author, 'Jérôme');
});
