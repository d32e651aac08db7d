import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followRedirects, MAX_SEED_REDIRECTS, type SeedHop } from '../../../worker/frontier/seed-chain';

type Hop = Omit<SeedHop, 'message'>;
/** A crawl as the report reads it: each URL's stored hop, and where each fetched redirect pointed. */
function crawlOf(hops: Hop[], locations: Record<string, string | null>) {
  const byUrl = new Map(hops.map((h) => [h.url, h]));
  const asked: string[] = [];
  return {
    asked,
    io: {
      hop: (url: string): Hop => byUrl.get(url) ?? { url, state: 'unseen', status: null, reason: null },
      location: async (url: string) => {
        asked.push(url);
        return locations[url] ?? null;
      },
    },
  };
}
const done = (url: string, status: number): Hop => ({ url, state: 'done', status, reason: null });

test('a seed that is a page is its own chain, and no record is read for it', async () => {
  const c = crawlOf([done('a', 200)], {});
  assert.deepEqual(await followRedirects('a', c.io), { hops: [done('a', 200)], cut: null });
  assert.deepEqual(c.asked, []);
});

test('redirects are followed to the page, failure or exclusion they end on', async () => {
  const excluded: Hop = { url: 'x', state: 'excluded', status: null, reason: 'out-of-scope' };
  const c = crawlOf([done('a', 301), done('b', 302), excluded], { a: 'b', b: 'x' });
  assert.deepEqual(await followRedirects('a', c.io), { hops: [done('a', 301), done('b', 302), excluded], cut: null });
  // A redirect not fetched yet (queued) is not followed: its Location is not known.
  const queued = crawlOf([{ url: 'a', state: 'queued', status: null, reason: null }], { a: 'b' });
  assert.equal((await followRedirects('a', queued.io)).hops.length, 1);
  assert.deepEqual(queued.asked, []);
});

test('a chain is cut at a loop, at a redirect without a Location, and past the most redirects followed', async () => {
  assert.deepEqual(await followRedirects('a', crawlOf([done('a', 301), done('b', 301)], { a: 'b', b: 'a' }).io), { hops: [done('a', 301), done('b', 301)], cut: 'loop' });
  assert.deepEqual(await followRedirects('a', crawlOf([done('a', 302)], { a: null }).io), { hops: [done('a', 302)], cut: 'no-location' });
  const n = MAX_SEED_REDIRECTS + 5;
  const urls = Array.from({ length: n }, (_, i) => `u${i}`);
  const long = crawlOf(urls.map((u) => done(u, 307)), Object.fromEntries(urls.slice(0, -1).map((u, i) => [u, urls[i + 1]!])));
  const chain = await followRedirects('u0', long.io);
  assert.equal(chain.cut, 'too-many-redirects');
  assert.equal(chain.hops.length, MAX_SEED_REDIRECTS + 1, 'the seed and the redirects followed');
});

// Before, a 304 was a redirect without a usable Location: a seed answering one was reported as a cut chain.
test('a 304 is no redirect: the chain ends on it, and no record is read for it', async () => {
  const c = crawlOf([done('a', 304)], {});
  assert.deepEqual(await followRedirects('a', c.io), { hops: [done('a', 304)], cut: null });
  assert.deepEqual(c.asked, []);
});
