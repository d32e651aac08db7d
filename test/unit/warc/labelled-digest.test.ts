import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseLabelledDigest, sha1Digest } from '../../../worker/warc/warc-digest';
import { checkRecordFields } from '../../../worker/warc/record-rules';
import { recordIdFromUuid, responseFields } from '../../../worker/warc/warc-fields';

const empty = (algorithm: string) => createHash(algorithm).digest();
const SHA256_HEX = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

test('a labelled digest is read in the spellings WARC writers use: sha1 base32, sha256 base16 or base32, compatibility labels, either case', () => {
  assert.deepEqual(parseLabelledDigest(sha1Digest(Buffer.alloc(0))), { algorithm: 'sha1', bytes: empty('sha1') });
  assert.deepEqual(parseLabelledDigest('SHA-1:3i42h3s6nnfq2msvx7xzkyaysCX5QBYJ'), { algorithm: 'sha1', bytes: empty('sha1') });
  assert.deepEqual(parseLabelledDigest(SHA256_HEX), { algorithm: 'sha256', bytes: empty('sha256') });
  assert.deepEqual(parseLabelledDigest('sha256:4OYMIQUY7QOBJGX36TEJS35ZEQT24QPEMSNZGTFESWMRW6CSXBKQ===='), { algorithm: 'sha256', bytes: empty('sha256') }, 'base32, padded');
  assert.deepEqual(parseLabelledDigest('md5:d41d8cd98f00b204e9800998ecf8427e'), { algorithm: 'md5', bytes: empty('md5') }, "an MD5's 32 characters are base16");
  // The standard's own example is no valid SHA-1 (warc-specifications #64), nor is an unknown label or a bare value.
  for (const bad of ['sha1:AB2CD3EF4GH5IJ6KL7MN8OPQ', 'crc32:cbf43926', 'sha1', 'sha256:e3b0c442', 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBY1']) {
    assert.equal(parseLabelledDigest(bad), null, bad);
  }
});

// Found by an exploratory session: `tidemark check` failed a WARC file written by warcio.js (the
// library Tidemark reads with), whose digests are sha256 in base16, with "not sha1 base32"; WARC 1.1
// recommends no particular algorithm, and WARC.md says sha256 is fine.
test('the record rules take any digest of a known algorithm, and name one they cannot read', () => {
  const base = { recordId: recordIdFromUuid('11111111-2222-4333-8444-555555555555'), date: '2024-05-06T07:08:09Z', warcinfoId: recordIdFromUuid('99999999-2222-4333-8444-555555555555') };
  const fields = responseFields(base, 'http://a/', null, SHA256_HEX, null, 10);
  assert.deepEqual(checkRecordFields([...fields, ['WARC-Block-Digest', SHA256_HEX]]), []);
  assert.deepEqual(checkRecordFields([...fields, ['WARC-Block-Digest', 'crc32:cbf43926']]), ['WARC-Block-Digest is no digest of a known algorithm: crc32:cbf43926']);
});
