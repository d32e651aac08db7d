import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cdxTimestamp, metadataBlock, outlinkOf, outlinksOfBlock, metadataFields, PROFILE_IDENTICAL, PROFILE_NOT_MODIFIED, recordIdFromUuid,
  requestFields, responseFields, revisitFields, serializeFields, warcDate, warcinfoBlock, warcinfoFields,
} from '../../../worker/warc/warc-fields';
import { base32, sha1Digest } from '../../../worker/warc/warc-digest';
import { field } from '../../../worker/warc/parse-heads';
import { checkFileRules, checkRecordFields, summarize } from '../../../worker/warc/record-rules';

const base = {
  recordId: recordIdFromUuid('11111111-2222-4333-8444-555555555555'),
  date: '2024-05-06T07:08:09.123Z',
  warcinfoId: recordIdFromUuid('99999999-2222-4333-8444-555555555555'),
};
const DIGEST = sha1Digest(Buffer.from('x'));

test('sha1 base32 matches the published digest of the empty string', () => {
  assert.equal(sha1Digest(Buffer.alloc(0)), 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ');
  // RFC 4648 test vectors.
  assert.equal(base32(Buffer.from('foobar')), 'MZXW6YTBOI======');
  assert.equal(base32(Buffer.from('f')), 'MY======');
});

test('WARC-Date keeps fractional seconds and CDX timestamps take 14 digits', () => {
  assert.equal(warcDate(new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123))), '2024-05-06T07:08:09.123Z');
  assert.equal(cdxTimestamp('2024-05-06T07:08:09.123Z'), '20240506070809');
});

test('serialised header starts with WARC/1.1 and has one CRLF-ended line per field', () => {
  const text = serializeFields([['WARC-Type', 'request'], ['Content-Length', '0']]);
  assert.equal(text, 'WARC/1.1\r\nWARC-Type: request\r\nContent-Length: 0\r\n');
});

test('no field may repeat except WARC-Concurrent-To', () => {
  assert.throws(() => serializeFields([['WARC-Date', 'a'], ['warc-date', 'b']]), /repeated/);
  assert.doesNotThrow(() => serializeFields([['WARC-Concurrent-To', '<a>'], ['WARC-Concurrent-To', '<b>']]));
  assert.throws(() => serializeFields([['WARC-Target-URI', 'http://a/\r\nX: y']]), /line break/);
});

test('warcinfo has WARC-Filename and never a WARC-Target-URI', () => {
  const block = warcinfoBlock({ software: 'Tidemark/0.1', robotsPolicy: 'obey', userAgent: 'ua', operator: 'Ops', isPartOf: 'col' });
  const f = warcinfoFields(base.recordId, base.date, 'x-20240506070809-00000.warc.gz', Buffer.byteLength(block));
  assert.equal(field(f, 'WARC-Filename'), 'x-20240506070809-00000.warc.gz');
  assert.equal(field(f, 'WARC-Target-URI'), undefined);
  assert.equal(field(f, 'Content-Type'), 'application/warc-fields');
  for (const k of ['software', 'format', 'conformsTo', 'robots', 'http-header-user-agent', 'operator', 'isPartOf']) {
    assert.match(block, new RegExp(`^${k}: .+\\r$`, 'm'), k);
  }
  // A collection's warcinfo: no robots policy or user agent of its own, a description of what it holds.
  const collection = warcinfoBlock({ software: 'Tidemark/0.1', description: 'crawl 3, export 4: hosts a.example' });
  assert.match(collection, /^description: crawl 3, export 4: hosts a\.example\r$/m);
  assert.doesNotMatch(collection, /^(robots|http-header-user-agent):/m);
  // Found by an exploratory session: an ICD's name, description and operator reached the block with
  // their control characters, which the warc-fields grammar's TEXT excludes (LWS, a tab, apart).
  const named = warcinfoBlock({ software: 'Tidemark/0.1', operator: 'Ops\u0001 <ops@example.org>', isPartOf: 'Tides\u0007 été', description: 'one\ntwo\tthree \u001b[31mred\u0000\u007f' });
  assert.doesNotMatch(named, /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/, 'no control character but the line ends and a tab');
  assert.match(named, /^operator: Ops  <ops@example\.org>\r$/m);
  assert.match(named, /^isPartOf: Tides  été\r$/m, 'UTF-8 text is kept');
  assert.match(named, /^description: one two\tthree  \[31mred  \r$/m);
});

test('Content-Type is written only for a non-empty block', () => {
  assert.equal(field(requestFields(base, 'http://a/', '<x>', null, 0), 'Content-Type'), undefined);
  assert.equal(field(requestFields(base, 'http://a/', '<x>', null, 10), 'Content-Type'), 'application/http;msgtype=request');
});

test('response fields: bare target URI, IP, payload digest, truncation', () => {
  const f = responseFields(base, 'http://a/b?c', '10.0.0.1', DIGEST, 'length', 123);
  assert.equal(field(f, 'WARC-Target-URI'), 'http://a/b?c');
  assert.equal(field(f, 'WARC-IP-Address'), '10.0.0.1');
  assert.equal(field(f, 'WARC-Payload-Digest'), DIGEST);
  assert.equal(field(f, 'WARC-Truncated'), 'length');
  assert.equal(field(f, 'Content-Length'), '123');
  assert.equal(field(responseFields(base, 'http://a/', null, DIGEST, null, 5), 'WARC-Truncated'), undefined);
});

test('revisits carry the WARC/1.1 profile, the original digest and the refers-to fields', () => {
  const ref = { uri: 'http://a/first', date: '2024-01-01T00:00:00Z', recordId: '<urn:uuid:x>', payloadDigest: DIGEST };
  const f = revisitFields(base, 'http://a/second', null, ref, 'identical-payload-digest', true, 80);
  assert.equal(field(f, 'WARC-Profile'), PROFILE_IDENTICAL);
  assert.equal(field(f, 'WARC-Refers-To-Target-URI'), 'http://a/first');
  assert.equal(field(f, 'WARC-Refers-To-Date'), '2024-01-01T00:00:00Z');
  assert.equal(field(f, 'WARC-Refers-To'), '<urn:uuid:x>');
  assert.equal(field(f, 'WARC-Payload-Digest'), DIGEST);
  assert.equal(field(f, 'WARC-Truncated'), 'length');
  const nm = revisitFields(base, 'http://a/', null, { ...ref, recordId: undefined }, 'server-not-modified', false, 80);
  assert.equal(field(nm, 'WARC-Profile'), PROFILE_NOT_MODIFIED);
  assert.equal(field(nm, 'WARC-Refers-To'), undefined);
  assert.equal(field(nm, 'WARC-Truncated'), undefined);
});

// Found by an exploratory session: `tidemark check` failed a WARC/1.0 revisit written as Heritrix 3
// writes it, with WARC/1.0's own profile URI (ISO 28500:2009: .../warc/1.0/revisit/...), as "bad
// WARC-Profile": the rules knew the WARC/1.1 URIs alone.
test("a revisit's profile is checked against its record's WARC version: /warc/1.0/ in WARC/1.0, /warc/1.1/ in WARC/1.1", () => {
  const ref = { uri: 'http://a/first', date: '2024-01-01T00:00:00Z', recordId: '<urn:uuid:x>', payloadDigest: DIGEST };
  for (const [profile, headersOnly] of [['identical-payload-digest', true], ['server-not-modified', false]] as const) {
    const f: Array<[string, string]> = [...revisitFields(base, 'http://a/second', null, ref, profile, headersOnly, 80), ['WARC-Block-Digest', DIGEST]];
    const as10 = f.map(([n, v]): [string, string] => [n, n === 'WARC-Profile' ? v.replace('/warc/1.1/', '/warc/1.0/') : v]);
    assert.deepEqual(checkRecordFields(f, 'WARC/1.1'), [], profile);
    assert.deepEqual(checkRecordFields(as10, 'WARC/1.0'), [], `${profile} in WARC/1.0`);
    assert.deepEqual(checkRecordFields(as10, 'WARC/1.1'), [`bad WARC-Profile ${field(as10, 'WARC-Profile')} for WARC/1.1`], 'a WARC/1.1 record names the 1.1 profile');
    assert.deepEqual(checkRecordFields(f, 'WARC/1.0'), [`bad WARC-Profile ${field(f, 'WARC-Profile')} for WARC/1.0`]);
  }
  // WARC-Truncated: length is asked of a WARC/1.0 identical-payload revisit that keeps its headers too.
  const identical10 = revisitFields(base, 'http://a/second', null, ref, 'identical-payload-digest', false, 80)
    .map(([n, v]): [string, string] => [n, n === 'WARC-Profile' ? v.replace('/warc/1.1/', '/warc/1.0/') : v]);
  assert.match(checkRecordFields([...identical10, ['WARC-Block-Digest', DIGEST]], 'WARC/1.0').join(), /keeps headers without WARC-Truncated: length/);
});

test('capture metadata: Heritrix-style outlink lines, other keys as fields', () => {
  const block = metadataBlock({
    outlinks: ['http://a/x', { url: 'http://a/i.png', hop: 'E', tag: 'img/@src' }],
    via: 'http://a/',
    scores: { rel: 0.5 },
  });
  assert.equal(
    block,
    'outlink: http://a/x L a/@href\r\noutlink: http://a/i.png E img/@src\r\nvia: http://a/\r\nscores: {"rel":0.5}\r\n',
  );
  const f = metadataFields(base, 'http://a/', '<urn:uuid:r>', 'application/warc-fields', block.length);
  assert.equal(field(f, 'WARC-Concurrent-To'), '<urn:uuid:r>');
});

test('a found link becomes a Heritrix outlink: hop E for what the page embeds, R for a redirect, L else; context element/@attribute', () => {
  assert.deepEqual(outlinkOf({ url: 'http://a/x', kind: 'navigation', source: 'a@href' }), { url: 'http://a/x', hop: 'L', tag: 'a/@href' });
  assert.deepEqual(outlinkOf({ url: 'http://a/i.png', kind: 'requisite', source: 'img@srcset' }), { url: 'http://a/i.png', hop: 'E', tag: 'img/@srcset' });
  assert.deepEqual(outlinkOf({ url: 'http://a/y', kind: 'redirect', source: 'header@location' }), { url: 'http://a/y', hop: 'R', tag: 'header/@location' });
  assert.deepEqual(outlinkOf({ url: 'http://a/s', kind: 'sitemap', source: 'sitemap@loc' }), { url: 'http://a/s', hop: 'L', tag: 'sitemap/@loc' });
  const links = [{ url: 'http://a/x', kind: 'navigation', source: 'a@href' }, { url: 'http://a/f.woff', kind: 'requisite', source: 'css@url' }];
  // What the WARC stage hands the writer: one line a link, hop and context written once.
  assert.equal(metadataBlock({ outlinks: links.map(outlinkOf) }), 'outlink: http://a/x L a/@href\r\noutlink: http://a/f.woff E css/@url\r\n');
});

test('out-links read back from a metadata block are the ones written, in order (the export finds a page\'s requisites so)', () => {
  const links = [
    { url: 'http://a/x', hop: 'L', tag: 'a/@href' },
    { url: 'http://a/i.png', hop: 'E', tag: 'img/@src' },
    { url: 'http://a/odd name.css', hop: 'E', tag: 'link/@href' },
    { url: 'http://a/y', hop: 'R', tag: 'header/@location' },
  ];
  const block = metadataBlock({ outlinks: links, via: 'http://a/' });
  assert.deepEqual(outlinksOfBlock(block), links);
  // Heritrix writes LF line ends too; a line missing its hop or tag names no link.
  assert.deepEqual(outlinksOfBlock('outlink: http://a/s.css E link/@href\noutlink: http://a/half\nvia: http://a/\n'), [{ url: 'http://a/s.css', hop: 'E', tag: 'link/@href' }]);
});

test('the record rules accept what the builders make and catch what they must not', () => {
  const good = [...responseFields(base, 'http://a/', null, DIGEST, null, 10), ['WARC-Block-Digest', DIGEST]] as Array<[string, string]>;
  assert.deepEqual(checkRecordFields(good), []);
  const bad: Array<[string, string]> = [
    ['WARC-Type', 'warcinfo'], ['WARC-Record-ID', 'urn:uuid:no-brackets'], ['WARC-Date', '2024-05-06 07:08'],
    ['WARC-Target-URI', '<http://a/>'], ['Content-Length', '5'], ['Content-Length', '5'],
  ];
  const errors = checkRecordFields(bad).join('\n');
  for (const e of ['repeated field', 'bad WARC-Record-ID', 'bad WARC-Date', 'Target-URI on warcinfo', 'without Content-Type', 'without WARC-Filename']) {
    assert.match(errors, new RegExp(e));
  }
  // WARC/1.0's grammar showed the target URI in angle brackets (GNU wget writes them); 1.1 made it bare.
  const bracketed = good.map(([n, v]): [string, string] => [n, n === 'WARC-Target-URI' ? `<${v}>` : v]);
  assert.deepEqual(checkRecordFields(bracketed, 'WARC/1.0'), []);
  assert.match(checkRecordFields(bracketed, 'WARC/1.1').join(), /WARC-Target-URI not bare/);
  assert.match(checkRecordFields(bracketed).join(), /WARC-Target-URI not bare/, 'WARC/1.1 unless told');
  const spaced = good.map(([n, v]): [string, string] => [n, n === 'WARC-Target-URI' ? `<http://a/ b>` : v]);
  assert.match(checkRecordFields(spaced, 'WARC/1.0').join(), /not bare/);
});

test('file rules: warcinfo first, requests paired with a response of the same date and URI', () => {
  const info = summarize(warcinfoFields(base.warcinfoId, base.date, 'f.warc.gz', 10));
  const resp = summarize(responseFields(base, 'http://a/', null, DIGEST, null, 10));
  const req = summarize(requestFields({ ...base, recordId: '<urn:uuid:req>' }, 'http://a/', base.recordId, null, 10));
  assert.deepEqual(checkFileRules([info, resp, req]), []);
  assert.match(checkFileRules([resp, info, req]).join(), /not warcinfo/);
  const lonely = summarize(requestFields({ ...base, recordId: '<urn:uuid:req>' }, 'http://a/', '<urn:uuid:none>', null, 10));
  assert.match(checkFileRules([info, lonely]).join(), /no concurrent response/);
  const otherDate = { ...req, date: '2024-05-06T07:08:10Z' };
  assert.match(checkFileRules([info, resp, otherDate]).join(), /differ/);
  // wget links the pair from the response's side.
  const wgetRequest = { ...req, concurrentTo: [] };
  const wgetResponse = { ...resp, concurrentTo: [req.id] };
  assert.deepEqual(checkFileRules([info, wgetRequest, wgetResponse]), []);
  assert.match(checkFileRules([info, wgetRequest, { ...wgetResponse, date: otherDate.date }]).join(), /differ/);
});
