/**
 * The collection's plan worked out in a scratch SQLite file (CollectionPlanStore) is the plan
 * planCollection works out in memory, record for record (which records, in which order, where a
 * collection file may end), and the revisits refused are revisitsWithoutOriginal's: checked on
 * generated crawls of several files whose payloads repeat across files, with revisits naming their
 * response, naming none, naming one no file holds, or repeating a payload no response holds;
 * requests written before their response and after it, metadata records, several warcinfos.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mayBeNeeded, planCollection, revisitsWithoutOriginal, type StoredRecordHead } from '../../../worker/export/collection-plan';
import { CollectionPlanStore } from '../../../worker/export/collection-plan-store';
import { withTempDir } from '../../support/temp-dir';

/** A small deterministic generator (mulberry32): the same crawls every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Record heads of `files` source files of a crawl, in file order. */
function generatedCrawl(next: () => number, files: number): StoredRecordHead[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const digests = Array.from({ length: 6 }, (_, i) => `sha1:PAYLOAD${i}`);
  const records: StoredRecordHead[] = [];
  const responses: string[] = [];
  let n = 0;
  for (let f = 0; f < files; f++) {
    const file = `crawl-${f}/file-0.warc.gz`;
    let offset = 0;
    const push = (r: Omit<StoredRecordHead, 'file' | 'offset' | 'length'>) => {
      const length = 10 + Math.floor(next() * 90);
      records.push({ file, offset, length, ...r });
      offset += length;
    };
    push({ type: 'warcinfo', id: `info-${f}`, concurrentTo: [] });
    if (next() < 0.2) push({ type: 'warcinfo', id: `info-${f}-again`, concurrentTo: [] });
    for (let c = 0; c < 30; c++) {
      const id = `rec-${n++}`;
      const revisit = responses.length > 0 && next() < 0.35;
      const payloadDigest = next() < 0.05 ? 'sha1:NEVERHELD' : pick(digests);
      const refersTo = !revisit ? undefined : pick([pick(responses), 'rec-missing', undefined]);
      const main = { type: revisit ? 'revisit' : 'response', id, concurrentTo: [], payloadDigest, refersTo };
      const request = { type: 'request', id: `${id}-req`, concurrentTo: [id] };
      if (next() < 0.5) {
        push(request);
        push(main);
      } else {
        push(main);
        push(request);
      }
      if (next() < 0.3) push({ type: 'metadata', id: `${id}-meta`, concurrentTo: [id] });
      if (!revisit) responses.push(id);
    }
  }
  return records;
}

test('the plan on disk is planCollection’s, record for record, and refuses the revisits revisitsWithoutOriginal names', async () => {
  await withTempDir('tm-collection-plan-store-', async (dir) => {
    const next = random(20261202);
    let compared = 0;
    let refused = 0;
    for (let round = 0; round < 40; round++) {
      const records = generatedCrawl(next, 1 + Math.floor(next() * 4));
      const captures = records.filter((r) => r.type === 'response' || r.type === 'revisit');
      const share = pick01(next);
      const chosen = new Set(captures.filter(() => next() < share).map((r) => r.id));
      if (next() < 0.2) chosen.add('rec-not-in-any-file');
      const revisitDigests = new Set(captures.filter((r) => r.type === 'revisit' && chosen.has(r.id)).map((r) => r.payloadDigest!));
      const kept = records.filter((r) => mayBeNeeded(r, chosen, revisitDigests));
      const files = [...new Set(records.map((r) => r.file))];

      const path = join(dir, `plan-${round}.sqlite`);
      const store = new CollectionPlanStore(path);
      try {
        await store.load(chosen, revisitDigests);
        for (const r of records) {
          assert.equal(mayBeNeeded(r, store.chosen, store.revisitDigests), kept.includes(r), `${r.id}: kept as with the sets`);
          if (kept.includes(r)) store.add(files.indexOf(r.file), { ...r });
        }
        const { orphans, firstOrphan, copies } = store.plan();
        const expectedOrphans = revisitsWithoutOriginal(kept, chosen);
        assert.equal(orphans, expectedOrphans.length, `round ${round}: revisits refused`);
        assert.equal(firstOrphan?.id, expectedOrphans[0]?.id);
        refused += orphans;

        const expected = planCollection(kept, chosen);
        const planned = [...store.planned()].map((m) => ({ file: files[m.file]!, offset: m.offset, length: m.length, type: m.type, startsGroup: m.startsGroup }));
        assert.deepEqual(planned, expected, `round ${round}: the same records, order and groups`);
        assert.equal(copies, expected.filter((m) => m.type !== 'warcinfo').length);
        for (const [i, file] of files.entries()) {
          const info = expected.filter((m) => m.file === file && m.type === 'warcinfo').at(-1);
          assert.equal(store.warcinfoOf(i)?.offset, info?.offset, `round ${round}: ${file}'s warcinfo`);
        }
        compared += expected.length;
      } finally {
        store.close();
      }
      assert.ok(!existsSync(path), 'the scratch file is removed');
    }
    assert.ok(compared > 500, `${compared} planned records compared`);
    assert.ok(refused > 0, 'some rounds refuse a revisit');
  });
});

/** A share of the captures to choose: few, about half, or nearly all. */
const pick01 = (next: () => number) => [0.05, 0.5, 0.95][Math.floor(next() * 3)]!;
