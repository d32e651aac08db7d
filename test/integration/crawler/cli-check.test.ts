import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ZipFile } from 'yazl';
import { startFixtureSite } from '../../support/fixture-site';
import { runCli } from '../../support/run-cli';

interface CheckReport {
  ok: boolean;
  files: { path: string; kind: 'warc' | 'cdxj' | 'wacz'; count: number; types?: Record<string, number>; files?: number; errors: string[]; warnings: string[] }[];
}

async function check(...paths: string[]): Promise<{ code: number | null; report: CheckReport; stderr: string }> {
  const run = await runCli(['check', ...paths, '--json']).done;
  return { code: run.code, report: run.stdout ? (JSON.parse(run.stdout) as CheckReport) : { ok: false, files: [] }, stderr: run.stderr };
}

test('tidemark check passes a crawl and its WACZ as written, and finds a changed byte, a cut file and a damaged package', { timeout: 90_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 6 });
  const base = mkdtempSync(join(tmpdir(), 'tm-check-'));
  const out = join(base, 'out');
  try {
    const crawl = await runCli(['crawl', '--seed', `${site.origin}/`, '--out', out, '--no-politeness', '--json', '--wacz']).done;
    assert.equal(crawl.code, 0, crawl.stderr.slice(-1000));
    const warc = readdirSync(out).find((n) => n.endsWith('.warc.gz'))!;

    const whole = await check(out);
    assert.equal(whole.code, 0, JSON.stringify(whole.report));
    assert.equal(whole.report.ok, true);
    assert.deepEqual(whole.report.files.map((f) => [f.kind, f.errors, f.warnings]), [['warc', [], []], ['cdxj', [], []], ['wacz', [], []]]);
    const [w, index, wacz] = whole.report.files;
    assert.equal(w!.count, Object.values(w!.types!).reduce((a, b) => a + b, 0));
    assert.equal(index!.count, (w!.types!.response ?? 0) + (w!.types!.revisit ?? 0), 'one index line per response or revisit');
    assert.deepEqual(wacz!.types, w!.types, "the package's WARC file is the crawl's");
    assert.equal(wacz!.files, 5, 'WARC file, index, pages, manifest and its digest');
    const text = await runCli(['check', out]).done;
    assert.match(text.stdout, /^ok {4}.*\.warc\.gz: \d+ records \(warcinfo 1, /m);
    assert.match(text.stdout, /all pass$/m);

    // One byte of a page changed, the record gzipped again: its digests no longer match.
    const changed = join(base, 'changed');
    cpSync(out, changed, { recursive: true });
    const line = readFileSync(join(changed, 'index.cdxj'), 'utf8').split('\n').find((l) => l.includes('"mime":"text/html"'))!;
    const { offset, length } = JSON.parse(line.slice(line.indexOf('{'))) as { offset: string; length: string };
    const file = readFileSync(join(changed, warc));
    const [at, len] = [Number(offset), Number(length)];
    const record = gunzipSync(file.subarray(at, at + len));
    const i = record.lastIndexOf('</');
    record[i + 2] = record[i + 2] === 0x62 ? 0x63 : 0x62; // the last closing tag's first letter
    writeFileSync(join(changed, warc), Buffer.concat([file.subarray(0, at), gzipSync(record), file.subarray(at + len)]));
    const bad = await check(join(changed, warc));
    assert.equal(bad.code, 1);
    assert.equal(bad.report.ok, false);
    assert.ok(bad.report.files[0]!.errors.some((e) => /WARC-Block-Digest mismatch/.test(e)), bad.report.files[0]!.errors.join('\n'));
    assert.ok(bad.report.files[0]!.errors.some((e) => /WARC-Payload-Digest mismatch/.test(e)));

    // A file cut short (a disk that filled up): its last record is incomplete.
    const cut = join(base, 'cut');
    cpSync(out, cut, { recursive: true });
    truncateSync(join(cut, warc), statSync(join(cut, warc)).size - 100);
    const short = await check(cut);
    assert.equal(short.code, 1);
    assert.ok(short.report.files[0]!.errors.length > 0, 'the cut WARC file fails');

    // One byte of the package's WARC file changed, in the middle of a page's gzip member (its
    // compressed data: a byte of a member's header, such as its mtime, is read by no one): its
    // CRC-32, its sha256 and that record's own check all say so: its gzip check, its digests, or that
    // a member holds no WARC header (the damaged deflate data may end the member early or decode to
    // other bytes; seen once in CI).
    const damaged = join(base, 'damaged.wacz');
    const zip = readFileSync(join(out, 'crawl.wacz'));
    const warcBytes = readFileSync(join(out, warc));
    const start = zip.indexOf(warcBytes.subarray(0, 64));
    assert.ok(start > 0, 'the WARC file is stored in the package as it is');
    zip[start + at + (len >> 1)] ^= 0xff;
    writeFileSync(damaged, zip);
    const broken = await check(damaged);
    assert.equal(broken.code, 1);
    const errors = broken.report.files[0]!.errors.join('\n');
    assert.match(errors, /^archive\/.*\.warc\.gz: CRC-32 differs/m);
    assert.match(errors, /^archive\/.*\.warc\.gz: sha256 differs from datapackage\.json's/m);
    assert.match(errors, /^archive\/.*\.warc\.gz: (gzip|warcio|record \d+ .*Digest|member at \d+: no WARC header)/m, 'its records were read where they lie in the package');
    // An entry whose name climbs out of the folder it would be unpacked to is refused, not written.
    const climbing = new ZipFile();
    climbing.addBuffer(Buffer.from('escaped'), 'AAAAAAAA/tm-check-escape.txt');
    climbing.end();
    const chunks: Buffer[] = [];
    for await (const c of climbing.outputStream) chunks.push(c as Buffer);
    const evil = Buffer.from(Buffer.concat(chunks).toString('latin1').replaceAll('AAAAAAAA', '../../..'), 'latin1');
    writeFileSync(join(base, 'climbing.wacz'), evil);
    const refused = await check(join(base, 'climbing.wacz'));
    assert.equal(refused.code, 1);
    assert.match(refused.report.files[0]!.errors[0]!, /^not a readable ZIP file: .*relative path/);
    assert.equal(existsSync(join(tmpdir(), '..', '..', 'tm-check-escape.txt')), false);
    writeFileSync(join(base, 'text.wacz'), 'not a zip');
    const notZip = await check(join(base, 'text.wacz'));
    assert.equal(notZip.code, 1);
    assert.match(notZip.report.files[0]!.errors[0]!, /^not a readable ZIP file/);

    const none = await check(join(base, 'nowhere'));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /nowhere: no such file or folder/);
    // With --json, stdout still holds one object, for a script piping it to jq: it held nothing.
    assert.equal(none.report.ok, false);
    assert.equal(none.report.files.length, 0);
    assert.match((none.report as CheckReport & { unchecked?: string[] }).unchecked?.[0] ?? '', /nowhere: no such file or folder/);
  } finally {
    rmSync(base, { recursive: true, force: true });
    await site.close();
  }
});

test("tidemark check accepts GNU wget's WARC file, written the WARC/1.0 way", { timeout: 90_000 }, async () => {
  const site = await startFixtureSite({ pageCount: 6 });
  const dir = mkdtempSync(join(tmpdir(), 'tm-check-wget-'));
  try {
    // Run beside this process, whose event loop serves the site.
    await promisify(execFile)('wget', ['-q', '--recursive', '--level=1', '--warc-file=wget', `${site.origin}/`], { cwd: dir });
    const text = gunzipSync(readFileSync(join(dir, 'wget.warc.gz'))).toString('latin1');
    // What makes it another tool's: WARC/1.0, bracketed target URIs, the pair linked from the response.
    assert.match(text, /^WARC\/1\.0\r\n/);
    assert.match(text, /^WARC-Target-URI: <http:\/\/127\.0\.0\.1:\d+\/>\r$/m);
    assert.match(text, /WARC-Type: response\r\n(?:[^\r]*\r\n)*?WARC-Concurrent-To: /);
    const { code, report } = await check(join(dir, 'wget.warc.gz'));
    assert.equal(code, 0, report.files[0]?.errors.join('\n'));
    assert.ok(report.files[0]!.types!.response! >= 4, 'robots.txt, the home page and the pages it links to');
    // The site sends its pages chunked, and wget digests the chunked bytes, not the entity body as WARC/1.1 says.
    const warnings = report.files[0]!.warnings;
    assert.ok(warnings.length >= 3, warnings.join('\n'));
    assert.ok(warnings.every((w) => /WARC-Payload-Digest is of the chunked body, not of the entity body/.test(w)));

    // The same file decompressed (as wget --no-warc-compression writes it): read once, record by record.
    writeFileSync(join(dir, 'wget.warc'), gunzipSync(readFileSync(join(dir, 'wget.warc.gz'))));
    const plain = await check(join(dir, 'wget.warc'));
    assert.equal(plain.code, 0, plain.report.files[0]?.errors.join('\n'));
    assert.deepEqual(plain.report.files[0]!.types, report.files[0]!.types);
    assert.equal(plain.report.files[0]!.warnings.length, warnings.length);
    const changed = readFileSync(join(dir, 'wget.warc'));
    changed[changed.indexOf('<title>') + 1] ^= 0x20; // 't' → 'T' in a page
    writeFileSync(join(dir, 'changed.warc'), changed);
    const bad = await check(join(dir, 'changed.warc'));
    assert.equal(bad.code, 1);
    assert.match(bad.report.files[0]!.errors.join('\n'), /WARC-Block-Digest mismatch/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await site.close();
  }
});
