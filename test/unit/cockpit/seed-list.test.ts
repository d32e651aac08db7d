import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedItems } from '../../../app/icds/seed-list';
import { formValuesFromIcd, validateForm } from '../../../app/icds/icd-form-model';

const urls = (text: string) => seedItems(text).map((s) => s.url);

test('seeds pasted on one line, separated by a comma and a space, are several seeds', () => {
  assert.deepEqual(urls('http://a.example/, http://b.example/'), ['http://a.example/', 'http://b.example/']);
  assert.deepEqual(urls('http://a.example/,\thttps://b.example/x ,  http://c.example/'), ['http://a.example/', 'https://b.example/x', 'http://c.example/']);
});

test('a comma directly before http:// or https:// separates too', () => {
  assert.deepEqual(urls('http://a.example/,http://b.example/,HTTPS://c.example/'), ['http://a.example/', 'http://b.example/', 'HTTPS://c.example/']);
});

test('commas inside a URL (path, query, fragment) stay in it', () => {
  for (const url of ['http://a.example/a,b/c', 'http://a.example/?tags=x,y,z', 'http://a.example/#p,1', 'http://a.example/list,', 'http://a.example/?u=x,ftp://b']) {
    assert.deepEqual(urls(url), [url]);
  }
});

test('one per line as before; blank lines, empty items and surrounding spaces are dropped; each seed keeps its line', () => {
  assert.deepEqual(seedItems('  http://a.example/  \n\n http://b.example/a,b, http://c.example/, \r\n'), [
    { url: 'http://a.example/', line: 1 },
    { url: 'http://b.example/a,b', line: 3 },
    { url: 'http://c.example/', line: 3 },
  ]);
  assert.deepEqual(seedItems(''), []);
  // A stray comma alone is kept, for the schema to refuse at its line rather than vanish.
  assert.deepEqual(seedItems('http://a.example/\n,'), [{ url: 'http://a.example/', line: 1 }, { url: ',', line: 2 }]);
});

test('the form saves comma-separated seeds as separate seeds, and names a bad one by its line', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'http://a.example/, http://b.example/\nhttps://ok.example.org/, not a url' };
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(icd.seeds, ['http://a.example/', 'http://b.example/', 'https://ok.example.org/', 'not a url']);
  assert.deepEqual(errors.seeds, ['Line 2: Not a valid http(s) URL: a URL starts with https:// or http://']);
});
