import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayGoOnAs } from '../../../app/lib/client/api';

const ADA = 1;
const BEA = 2;

test('a page goes on in a session of its own user, whatever it holds', () => {
  assert.equal(mayGoOnAs(ADA, ADA, true), true, 'signed in again: the request is sent again');
  assert.equal(mayGoOnAs(ADA, ADA, false), true);
});

test('a page that works for nobody yet takes the first session it sees', () => {
  assert.equal(mayGoOnAs(null, BEA, true), true);
  assert.equal(mayGoOnAs(null, BEA, false), true);
});

test('another user signed in takes the page over only with nothing of its user at stake', () => {
  assert.equal(mayGoOnAs(ADA, BEA, true), false, "unsaved edits or a request of Ada's are not sent as Bea's");
  assert.equal(mayGoOnAs(ADA, BEA, false), true, 'nothing typed: the page goes on as Bea');
});
