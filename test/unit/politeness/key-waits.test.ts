import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closesWaitCycle } from '../../../worker/politeness';

test('no waits: a wait for another key closes no cycle; a wait for the key held does', () => {
  assert.equal(closesWaitCycle([], { held: '10.0.0.1', wanted: '10.0.0.2' }), false);
  assert.equal(closesWaitCycle([], { held: '10.0.0.1', wanted: '10.0.0.1' }), true);
});

test('two requests each waiting for the key the other holds', () => {
  const waits = [{ held: '10.0.0.2', wanted: '10.0.0.1' }];
  assert.equal(closesWaitCycle(waits, { held: '10.0.0.1', wanted: '10.0.0.2' }), true);
  assert.equal(closesWaitCycle(waits, { held: '10.0.0.3', wanted: '10.0.0.2' }), false, 'a third key: 10.0.0.2 is freed once 10.0.0.1 is');
});

test('a longer cycle, through several holders', () => {
  const waits = [{ held: 'b', wanted: 'c' }, { held: 'c', wanted: 'd' }, { held: 'd', wanted: 'a' }];
  assert.equal(closesWaitCycle(waits, { held: 'a', wanted: 'b' }), true);
  assert.equal(closesWaitCycle(waits, { held: 'x', wanted: 'b' }), false);
});

test('several waits from one key (two origins of one host): any path back is a cycle', () => {
  const waits = [{ held: 'b', wanted: 'x' }, { held: 'b', wanted: 'a' }];
  assert.equal(closesWaitCycle(waits, { held: 'a', wanted: 'b' }), true);
});

test('waits that form a cycle among themselves do not loop the check', () => {
  const waits = [{ held: 'b', wanted: 'c' }, { held: 'c', wanted: 'b' }];
  assert.equal(closesWaitCycle(waits, { held: 'a', wanted: 'b' }), false);
});
