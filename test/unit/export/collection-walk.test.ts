import { test } from 'node:test';
import assert from 'node:assert/strict';
import { walkCollection, walkedShare, type CrawlReader, type WalkedCapture } from '../../../worker/export/collection-walk';

/** A crawl as literal data: each URL's one capture, where it redirects, what it embeds. */
function crawlOf(pages: Record<string, { status?: number; mime?: string | null; recordType?: string; location?: string; embeds?: string[]; imports?: string[] }>) {
  let id = 0;
  const captures = new Map<string, WalkedCapture>();
  for (const [url, p] of Object.entries(pages)) {
    captures.set(url, { id: ++id, url, status: p.status ?? 200, mime: p.mime === undefined ? 'text/html' : p.mime, fetchedAt: '2026-12-01T00:00:00.000Z', recordType: p.recordType ?? 'response', payloadDigest: null, warcRecordId: `<urn:${url}>` });
  }
  const reads: string[] = [];
  const reader: CrawlReader<WalkedCapture> = {
    captureNear: (url) => captures.get(url),
    locationOf: async (c) => pages[c.url]!.location ?? null,
    embedsOf: async (c) => {
      reads.push(c.url);
      const p = pages[c.url]!;
      return [...(p.embeds ?? []).map((url) => ({ url, part: false })), ...(p.imports ?? []).map((url) => ({ url, part: true }))];
    },
  };
  const pick = (...urls: string[]) => urls.map((u) => captures.get(u)!);
  return { reader, pick, reads };
}

const site = crawlOf({
  '/page': { embeds: ['/style.css', '/logo.png', '/frame', '/cdn.png', '/not-captured.png'] },
  '/style.css': { mime: 'text/css', embeds: ['/bg.png', '/font.woff'] },
  '/bg.png': { mime: 'image/png' },
  '/font.woff': { mime: 'font/woff' },
  '/logo.png': { mime: 'image/png' },
  // An iframe: its stylesheet (hop 2), that stylesheet's image (hop 3), and nothing further.
  '/frame': { embeds: ['/frame.css'] },
  '/frame.css': { mime: 'text/css', embeds: ['/frame-bg.svg'] },
  '/frame-bg.svg': { mime: 'image/svg+xml', embeds: ['/too-far.png'] },
  '/too-far.png': { mime: 'image/png' },
  // A CDN image that redirects to its storage host: the requisite is where it led.
  '/cdn.png': { status: 302, mime: null, location: '/store/cdn.png' },
  '/store/cdn.png': { mime: 'image/png' },
  // A page that moved: where it went is a page, with its own requisites.
  '/old': { status: 301, location: '/new' },
  '/new': { embeds: ['/new.png'] },
  '/new.png': { mime: 'image/png' },
  // A page unchanged at its revisit (304): replayed from the earlier response, it embeds the same.
  '/same': { status: 304, recordType: 'revisit', embeds: ['/logo.png'] },
  '/link-only': {},
});

const urls = (cs: readonly WalkedCapture[]) => cs.map((c) => c.url);
const everyRequisite = { requisites: true, admitsRequisite: () => true };

test('a page brings its requisites, theirs up to three embed hops, and where they redirect', async () => {
  const [page] = site.pick('/page');
  const added = await walkCollection([page!], site.reader, everyRequisite, new Set([page!.warcRecordId]));
  assert.deepEqual(urls(added), [
    '/style.css', '/logo.png', '/frame', '/cdn.png',
    '/bg.png', '/font.woff', '/frame.css', '/store/cdn.png',
    '/frame-bg.svg',
  ], 'level by level (a redirect\'s target on its own); not /too-far.png, four embed hops away; a URL never captured is passed over');
});

test('a redirect brings where it leads, whose requisites come too; a 304 revisit brings what its page embeds', async () => {
  const selected = site.pick('/old', '/same');
  const held = new Set(selected.map((c) => c.warcRecordId));
  assert.deepEqual(urls(await walkCollection(selected, site.reader, everyRequisite, held)), ['/new', '/logo.png', '/new.png']);
  // Without requisites, only the redirect's target; no out-links read at all.
  const before = site.reads.length;
  assert.deepEqual(urls(await walkCollection(selected, site.reader, { requisites: false, admitsRequisite: () => true }, held)), ['/new']);
  assert.equal(site.reads.length, before);
});

test('what the selection holds already is not added again, nor walked twice; a filter judges requisites only', async () => {
  const [page, logo, style] = site.pick('/page', '/logo.png', '/style.css');
  // The logo is selected (held), so it is not among the added; the stylesheet is both selected and walked from.
  const added = await walkCollection([page!, style!], site.reader, everyRequisite, new Set([page!, logo!, style!].map((c) => c.warcRecordId)));
  assert.ok(!urls(added).includes('/logo.png') && !urls(added).includes('/style.css'));
  assert.equal(new Set(urls(added)).size, added.length);
  // Only HTML asked for (with requisites): the iframe comes, no image, stylesheet or redirect to an image.
  const htmlOnly = { requisites: true, admitsRequisite: (c: WalkedCapture) => c.mime === 'text/html' };
  assert.deepEqual(urls(await walkCollection([page!], site.reader, htmlOnly, new Set([page!.warcRecordId]))), ['/frame']);
  // A redirect's target is no requisite: the filter does not judge it.
  const [old] = site.pick('/old');
  assert.deepEqual(urls(await walkCollection([old!], site.reader, { requisites: true, admitsRequisite: () => false }, new Set([old!.warcRecordId]))), ['/new']);
});

test('a walk stops when its signal is aborted', async () => {
  const [page] = site.pick('/page');
  await assert.rejects(walkCollection([page!], site.reader, everyRequisite, new Set(), AbortSignal.abort(new Error('cancelled'))), /cancelled/);
});

test("a module's imports and a sheet's @imports are parts of it, taken however deep, as the crawl took them", async () => {
  const deep = crawlOf({
    '/page': { embeds: ['/frame'] },
    '/frame': { embeds: ['/inner'] },
    // Three embed hops from /page: its own imports and @imports still come, a chain of them whole.
    '/inner': { embeds: ['/main.js', '/site.css'] },
    '/main.js': { mime: 'text/javascript', imports: ['/m2.js'] },
    '/m2.js': { mime: 'text/javascript', imports: ['/m3.js'] },
    '/m3.js': { mime: 'text/javascript', imports: ['/m4.js', '/main.js'] },
    '/m4.js': { mime: 'text/javascript' },
    '/site.css': { mime: 'text/css', imports: ['/base.css'], embeds: ['/hop4.png'] },
    '/base.css': { mime: 'text/css', embeds: ['/hop4-too.png'] },
    '/hop4.png': { mime: 'image/png' },
    '/hop4-too.png': { mime: 'image/png' },
  });
  const [page] = deep.pick('/page');
  const added = await walkCollection([page!], deep.reader, everyRequisite, new Set([page!.warcRecordId]));
  assert.deepEqual(urls(added), ['/frame', '/inner', '/main.js', '/site.css', '/m2.js', '/base.css', '/m3.js', '/m4.js'],
    'the import chain whole (its loop back to /main.js ending there); not the images four embed hops away, through a sheet or its @import');
});

test("the walk's progress rises with each capture walked, never back as requisites are found, to 1 at its end", async () => {
  const reported: number[] = [];
  await walkCollection(site.pick('/page'), site.reader, { requisites: true, admitsRequisite: () => true }, new Set(), undefined, (f) => reported.push(f));
  assert.ok(new Set(reported).size >= 5, `moves as it walks: ${reported.join(' ')}`);
  assert.deepEqual(reported, [...reported].sort((a, b) => a - b), 'never goes back');
  assert.ok(reported.slice(0, -1).every((f) => f < 1), 'below 1 while captures are ahead');
  assert.equal(reported.at(-1), 1);
  // Pure: the share walked of those known, held when the count rises.
  assert.equal(walkedShare(0, 1, 3), 0.25);
  assert.equal(walkedShare(0.5, 2, 8), 0.5);
  assert.equal(walkedShare(0.5, 9, 0), 1);
});
