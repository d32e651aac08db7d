/**
 * A pause, resume, stop or export request arriving while (or just after) the crawl is deleted,
 * to the route handlers as Next calls them, over a real migrated SQLite database: the answer is
 * 404 or 409, never 500, and no export is answered 201 and then deleted with the crawl.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { routeDatabase, signedInAs } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';

const ORIGIN = 'http://cockpit.test';
let admin = { cookie: '', csrf: '' };
let s: Services;

before(async () => {
  s = await routeDatabase('tidemark-delete-races-');
  admin = await signedInAs(s, 'root', 'admin');
});

type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
const routes = async () => ({
  control: (await import('../../../app/api/crawls/[id]/control/route')).POST as Handler,
  exportsPost: (await import('../../../app/api/crawls/[id]/exports/route')).POST as Handler,
  del: (await import('../../../app/api/crawls/[id]/route')).DELETE as Handler,
});

const headers = () => ({ host: 'cockpit.test', origin: ORIGIN, cookie: admin.cookie, 'x-csrf-token': admin.csrf });
function request(method: string, body?: unknown): Request {
  return new Request(`${ORIGIN}/api/thing`, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
}
const params = (id: number) => ({ params: Promise.resolve({ id: String(id) }) });

/** An ICD today's rules accept ('{}', without name and seeds, is refused, and so is a resume of its crawl). */
const QUAY = JSON.stringify({ name: 'Quay', seeds: ['http://127.0.0.1:9/'] });

/** A crawl row in `status` wanting `desired`, of an ICD of its own. */
function crawlRow(status: string, desired: string): number {
  const icdId = s.db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', ?, datetime('now'), datetime('now'))").run(QUAY).lastInsertRowid;
  return Number(s.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, 'Quay', ?, ?, datetime('now'))").run(icdId, QUAY, status, desired).lastInsertRowid);
}
const crawlExists = (id: number) => s.db.prepare('SELECT COUNT(*) FROM Crawl WHERE id = ?').pluck().get(id) === 1;

/**
 * A POST whose JSON body deletes the crawl (as a DELETE answered meanwhile would) when the handler
 * reads it: the handler has looked the crawl up, or not, before; it writes after.
 */
function requestDeletingOnRead(crawlId: number, body: unknown): Request {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      s.db.prepare('DELETE FROM Crawl WHERE id = ?').run(crawlId);
      controller.enqueue(bytes);
      controller.close();
    },
  }, { highWaterMark: 0 });
  return new Request(`${ORIGIN}/api/thing`, { method: 'POST', headers: headers(), body: stream, duplex: 'half' } as RequestInit);
}

test('pause, resume, stop and export of a crawl deleted before: 404, not 500', async () => {
  const { control, exportsPost, del } = await routes();
  for (const [action, status, desired] of [['pause', 'running', 'run'], ['resume', 'paused', 'pause'], ['stop', 'paused', 'pause']] as const) {
    const id = crawlRow(status, desired);
    s.db.prepare("UPDATE Crawl SET status = 'paused', desired = 'pause' WHERE id = ?").run(id);
    assert.equal((await del(request('DELETE'), params(id))).status, 204);
    const res = await control(request('POST', { action }), params(id));
    assert.equal(res.status, 404, `${action}: ${await res.clone().text()}`);
    assert.deepEqual(await res.json(), { error: 'not found' });
    assert.equal((await exportsPost(request('POST', {}), params(id))).status, 404, 'export');
    assert.equal((await del(request('DELETE'), params(id))).status, 404, 'a second delete');
  }
});

test('a pause, resume or stop whose crawl is deleted between the handler reading it and writing: 404, not 500', async () => {
  const { control } = await routes();
  for (const [action, status, desired] of [['pause', 'running', 'run'], ['resume', 'paused', 'pause'], ['stop', 'paused', 'pause']] as const) {
    const id = crawlRow(status, desired);
    const res = await control(requestDeletingOnRead(id, { action }), params(id));
    assert.equal(crawlExists(id), false);
    assert.equal(res.status, 404, `${action}: ${await res.clone().text()}`);
  }
});

/**
 * Runs `hook` each time a handler has read a crawl through Prisma, before the handler goes on: the
 * moment a request on the same crawl could be answered in between. A handler that reads and writes
 * in one transaction on the driver never gives it the chance.
 */
async function afterPrismaCrawlReads<T>(hook: () => Promise<void>, run: () => Promise<T>): Promise<T> {
  const holder = globalThis as { __tidemarkServices?: Services };
  const real = holder.__tidemarkServices!.prisma;
  let hooked = false;
  const crawl = new Proxy(real.crawl, {
    get: (target, prop) =>
      prop === 'findUnique'
        ? async (...args: Parameters<typeof target.findUnique>) => {
            const row = await target.findUnique(...args);
            // Once: the request the hook sends reads the crawl too.
            if (!hooked) {
              hooked = true;
              await hook();
            }
            return row;
          }
        : Reflect.get(target, prop),
  });
  holder.__tidemarkServices!.prisma = new Proxy(real, { get: (target, prop) => (prop === 'crawl' ? crawl : Reflect.get(target, prop)) });
  try {
    return await run();
  } finally {
    holder.__tidemarkServices!.prisma = real;
  }
}

test('an export asked for while its crawl is being deleted: 404, or 201 with the export kept (never 500, never a lost export)', async () => {
  const { exportsPost, del } = await routes();
  // The DELETE is answered right after the export's handler looked the crawl up.
  const first = crawlRow('finished', 'run');
  let deleted: Response | undefined;
  const exported = await afterPrismaCrawlReads(async () => void (deleted = await del(request('DELETE'), params(first))), () => exportsPost(request('POST', {}), params(first)));
  assertSettled(first, exported, deleted);
  // The export is asked for right after the DELETE's handler looked the crawl up.
  const second = crawlRow('finished', 'run');
  let exportedMeanwhile: Response | undefined;
  const deleteAnswer = await afterPrismaCrawlReads(async () => void (exportedMeanwhile = await exportsPost(request('POST', {}), params(second))), () => del(request('DELETE'), params(second)));
  assertSettled(second, exportedMeanwhile, deleteAnswer);
});

/** One of the two requests won, the other was refused, and an export answered 201 exists. */
function assertSettled(crawlId: number, exported: Response | undefined, deleted: Response | undefined): void {
  const outcome = `export ${exported?.status}, delete ${deleted?.status}`;
  if (exported?.status === 201) {
    assert.equal(crawlExists(crawlId), true, `${outcome}: the crawl of an export answered 201 is still there`);
    assert.equal(s.db.prepare('SELECT COUNT(*) FROM Export WHERE crawlId = ?').pluck().get(crawlId), 1, `${outcome}: the export answered 201 is kept`);
    assert.ok(deleted === undefined || deleted.status === 409, outcome);
  } else {
    assert.equal(exported?.status ?? 404, 404, outcome);
    assert.equal(crawlExists(crawlId), false, outcome);
  }
}
