import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canDelete, canExport, desiredAfter, exclusionRefusal, exportCancelRefusal, exportDeleteRefusal, exportRefusal, intakeRefusal, noCapturesRefusal } from '../../../worker/process/crawl-control';

test('pause, resume and stop set what the worker converges on', () => {
  assert.deepEqual(desiredAfter('running', 'pause'), { desired: 'pause' });
  assert.deepEqual(desiredAfter('paused', 'resume'), { desired: 'run' });
  assert.deepEqual(desiredAfter('paused', 'stop'), { desired: 'stop' });
  assert.deepEqual(desiredAfter('created', 'stop'), { desired: 'stop' });
});

test('a crawl is not resumed while one of its exports is under way; pausing and stopping still are allowed', () => {
  const refused = desiredAfter('paused', 'resume', 7);
  assert.ok('error' in refused && /Export 7 of this crawl is under way/.test(refused.error), JSON.stringify(refused));
  assert.deepEqual(desiredAfter('paused', 'stop', 7), { desired: 'stop' });
  assert.deepEqual(desiredAfter('paused', 'pause', 7), { desired: 'pause' });
  assert.deepEqual(desiredAfter('paused', 'resume', null), { desired: 'run' });
});

test('a finished, stopped or failed crawl refuses every action with a reason', () => {
  for (const status of ['finished', 'stopped', 'failed']) {
    for (const action of ['pause', 'resume', 'stop'] as const) {
      const result = desiredAfter(status, action);
      assert.ok('error' in result && result.error.includes(status), `${status}/${action}`);
    }
  }
});

test('only a crawl no worker is writing may be deleted', () => {
  assert.equal(canDelete('running', 'pause'), false);
  assert.equal(canDelete('pausing', 'pause'), false);
  assert.equal(canDelete('stopping', 'pause'), false);
  assert.equal(canDelete('created', 'pause'), false, 'the worker is about to start it');
  assert.equal(canDelete('paused', 'pause'), true);
  assert.equal(canDelete('paused', 'run'), false, 'a resume was asked for: the worker may be launching it now');
  assert.equal(canDelete('finished', 'pause'), true);
});

test('an export is requested only of a crawl no worker is writing, nor about to', () => {
  for (const status of ['created', 'running', 'pausing', 'stopping']) assert.equal(canExport(status, 'pause'), false, status);
  assert.equal(canExport('paused', 'run'), false, 'a resume was asked for: the worker may be launching it now');
  for (const status of ['paused', 'stopped', 'finished', 'failed']) assert.equal(canExport(status, 'pause'), true, status);
  assert.equal(canExport('finished', 'run'), true, 'a finished crawl runs no more, whatever it wanted');
});

test('the exports page\'s reason to refuse an export is the server\'s: a paused crawl asked to resume is refused, with why', () => {
  // The page enabled Export for any paused crawl (its own list of statuses), and the server answered 409.
  assert.equal(exportRefusal('paused', 'run'), 'The crawl is being resumed: pause, stop or let it finish before exporting');
  assert.equal(exportRefusal('running', 'run'), 'The crawl is running: pause, stop or let it finish before exporting');
  assert.equal(exportRefusal('created', 'run'), 'The crawl is created: pause, stop or let it finish before exporting');
  for (const [status, desired] of [['paused', 'pause'], ['paused', 'stop'], ['finished', 'run'], ['stopped', 'stop'], ['failed', 'run']]) {
    assert.equal(exportRefusal(status!, desired!), null, `${status}, wanting ${desired}`);
  }
});

test('an export can be cancelled while pending or running, not once it has ended, saying why', () => {
  assert.equal(exportCancelRefusal('pending'), null);
  assert.equal(exportCancelRefusal('running'), null);
  for (const status of ['done', 'failed', 'cancelled']) {
    assert.equal(exportCancelRefusal(status), `The export is ${status}: only a pending or running export can be cancelled`);
  }
});

test('an export can be deleted once it has ended, not while pending or running (cancel first)', () => {
  for (const status of ['done', 'failed', 'cancelled']) assert.equal(exportDeleteRefusal(status), null, status);
  assert.equal(exportDeleteRefusal('pending'), 'The export is pending: cancel it first, then delete it');
  assert.equal(exportDeleteRefusal('running'), 'The export is running: cancel it first, then delete it');
});

test('posted URLs are refused by an ended crawl and by one whose visit set is closed, taken otherwise', () => {
  for (const status of ['finished', 'stopped', 'failed']) {
    assert.equal(intakeRefusal(status, false), `The crawl is ${status}: it takes no more URLs`);
    assert.equal(intakeRefusal(status, true), `The crawl is ${status}: it takes no more URLs`, 'the end is the first reason');
  }
  for (const status of ['created', 'running', 'paused', 'pausing']) {
    assert.equal(intakeRefusal(status, false), null, status);
    // A paused visit–revisit capture whose revisit pass had begun visits no more URLs when resumed either.
    assert.match(intakeRefusal(status, true) ?? '', /^The crawl's revisit pass has begun: a visit–revisit capture visits no more URLs/, status);
  }
});

test('posted URLs are refused by a stopping crawl, and by one whose intake closed as it ended though its status does not say so yet', () => {
  assert.equal(intakeRefusal('stopping', false), 'The crawl is stopping: it takes no more URLs', 'stopped whatever is asked meanwhile');
  // The engine finished its visits and closes its files: the crawl is marked finished after.
  assert.equal(intakeRefusal('running', false, 'finished'), 'The crawl is finished: it takes no more URLs');
  assert.equal(intakeRefusal('running', true, 'finished'), 'The crawl is finished: it takes no more URLs', 'the end is the first reason');
  // The status, once final, is the one said.
  assert.equal(intakeRefusal('stopped', false, 'finished'), 'The crawl is stopped: it takes no more URLs');
  assert.equal(intakeRefusal('running', false, null), null);
});

test('an exclusion may be added while the crawl may still visit URLs, not once it has ended or is being stopped', () => {
  for (const status of ['created', 'running', 'pausing', 'paused']) assert.equal(exclusionRefusal(status, 'run'), null, status);
  assert.equal(exclusionRefusal('paused', 'pause'), null, 'a paused crawl takes it when it runs');
  for (const status of ['stopped', 'finished', 'failed']) assert.match(exclusionRefusal(status, 'run') ?? '', new RegExp(`The crawl is ${status}`), status);
  assert.match(exclusionRefusal('stopping', 'stop') ?? '', /being stopped/);
  assert.match(exclusionRefusal('paused', 'stop') ?? '', /being stopped/, 'a paused crawl asked to stop');
  // The removal of a pattern: the same states, its own words.
  for (const status of ['created', 'running', 'pausing', 'paused']) assert.equal(exclusionRefusal(status, 'run', 'remove'), null, status);
  assert.equal(exclusionRefusal('finished', 'run', 'remove'), 'The crawl is finished: it visits no more URLs, so removing a pattern would change nothing');
  assert.match(exclusionRefusal('paused', 'stop', 'remove') ?? '', /being stopped: .*removing a pattern would change nothing/);
});

test('an ended crawl that captured nothing has nothing to export; a paused one, or one with captures, may be exported', () => {
  assert.equal(noCapturesRefusal('finished', 0), 'The crawl finished without capturing anything: it has no captures to export');
  assert.equal(noCapturesRefusal('failed', 0), 'The crawl failed without capturing anything: it has no captures to export');
  assert.equal(noCapturesRefusal('stopped', 0), 'The crawl was stopped without capturing anything: it has no captures to export');
  assert.equal(noCapturesRefusal('paused', 0), null);
  assert.equal(noCapturesRefusal('finished', 1), null);
});
