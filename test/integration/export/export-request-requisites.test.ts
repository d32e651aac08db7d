/**
 * An export requested with a selection is stored saying whether it takes the pages' requisites, as
 * taken (a selection that does not say: yes, unless it filters by MIME type), so the export's card
 * and warcinfo say what it holds; an export stored before requisites existed took none, and its card
 * says nothing of them. Real parts: the route handler over a migrated SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema } from '../../../worker/icd/schema';
import { describeStoredSelection } from '../../../worker/export/collection-plan';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';

const s = await routeDatabase('tm-export-request-requisites-');
const { POST: requestExport } = await import('../../../app/api/crawls/[id]/exports/route');

test('a requested selection is stored with requisites as taken', async () => {
  const manager = await signedInAs(s, 'manager', 'manager');
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Harbour', seeds: ['http://harbour.test/'] }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  const stored = async (selection: object | null) => {
    const res = await callRoute(manager, requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { selection }, { id: String(crawlId) });
    assert.equal(res.status, 201);
    return res.body.selection as Record<string, unknown> | null;
  };
  assert.equal((await stored({ urlContains: '/news/' }))?.requisites, true);
  assert.equal((await stored({ mimeTypes: ['text/html'] }))?.requisites, false);
  assert.equal((await stored({ mimeTypes: ['text/html', 'image/'], requisites: true }))?.requisites, true);
  assert.equal((await stored({ coherence: ['unchanged'], requisites: false }))?.requisites, false);
  assert.equal(await stored({ requisites: false }), null, 'no filter: the whole crawl');
  // As the card describes a stored selection: one from before requisites took none.
  assert.equal(describeStoredSelection({ urlContains: '/news/' }), 'URLs containing "/news/"');
  assert.equal(describeStoredSelection((await stored({ urlContains: '/news/' }))!), 'URLs containing "/news/"; with the pages\' requisites');
});
