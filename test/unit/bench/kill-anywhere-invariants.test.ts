import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countEach, exactlyOnceViolations, indexCoverageViolations, leftoverViolations } from '../../../bench/kill-anywhere/invariants';

const site = 'http://127.0.0.1:9';
const expected = [`${site}/`, `${site}/p/1.html`, `${site}/img/pic-0.png`];

test('every page captured exactly once passes; robots.txt may be captured by every run', () => {
  const counts = countEach([...expected, `${site}/robots.txt`, `${site}/robots.txt`]);
  assert.deepEqual(exactlyOnceViolations(expected, counts, 'WARC files'), []);
});

test('a page missing, captured twice, or a URL not of the site is a violation each', () => {
  const counts = countEach([`${site}/`, `${site}/p/1.html`, `${site}/p/1.html`, `${site}/p/9.html`]);
  assert.deepEqual(exactlyOnceViolations(expected, counts, 'WARC files'), [
    `WARC files: ${site}/p/1.html captured 2 times, not once`,
    `WARC files: ${site}/img/pic-0.png captured 0 times, not once`,
    `WARC files: ${site}/p/9.html, not a page of the site, captured 1 times`,
  ]);
});

test('each record needs one index line, and the index no line of its own', () => {
  const records = countEach([`${site}/`, `${site}/p/1.html`]);
  assert.deepEqual(indexCoverageViolations(records, countEach([`${site}/`, `${site}/p/1.html`])), []);
  assert.deepEqual(indexCoverageViolations(records, countEach([`${site}/`, `${site}/`, `${site}/p/2.html`])), [
    `index.cdxj: ${site}/ has 2 lines for 1 records in the WARC files`,
    `index.cdxj: ${site}/p/1.html has 0 lines for 1 records in the WARC files`,
    `index.cdxj: ${site}/p/2.html has 1 lines for 0 records in the WARC files`,
  ]);
});

test('open, temporary and index-run files are left-overs; closed WARC files and the index are not', () => {
  const names = ['a-00000.warc.gz', 'a-00001.warc.gz.open', 'index.cdxj', 'index.cdxj.open', 'index.cdxj.run-0', 'crawl-log.tsv', 'crawl-log.tsv.tmp', 'tidemark-state.db'];
  assert.deepEqual(leftoverViolations(names), ['a-00001.warc.gz.open', 'index.cdxj.open', 'index.cdxj.run-0', 'crawl-log.tsv.tmp'].map((n) => `left over after the final run: ${n}`));
});
