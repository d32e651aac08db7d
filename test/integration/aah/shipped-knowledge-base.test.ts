/** The shipped knowledge base, its schema and its documentation stay in step with the parser. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { loadDefaultKnowledgeBaseXml, parseKnowledgeBase } from '../../../worker/aah/index';
import { KB_SCHEMA } from '../../../worker/aah/kb-parser';
import { readXml, type XmlElement } from '../../../worker/aah/kb-xml-reader';

const repoFile = (path: string): Promise<string> => readFile(new URL(`../../../${path}`, import.meta.url), 'utf8');

test('the shipped knowledge base parses and covers the applications the issue names', async () => {
  const r = parseKnowledgeBase(await loadDefaultKnowledgeBaseXml());
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
  const apps = Object.fromEntries(r.kb.applications.map((a) => [a.id, a]));
  for (const id of ['wordpress', 'mediawiki', 'phpbb', 'vbulletin', 'dokuwiki', 'drupal', 'discourse', 'generic-blog', 'generic-forum', 'generic-news']) {
    assert.ok(apps[id], `missing ${id}`);
    const app = apps[id];
    assert.ok(app.levels.some((l) => l.level === 'terminal'), `${id} has a terminal level`);
    assert.ok(app.levels.some((l) => l.level === 'intermediate'), `${id} has an intermediate level`);
    assert.ok([...app.navigate, ...app.levels.flatMap((l) => l.navigate)].some((n) => !n.follow), `${id} has do-not-follow rules`);
    assert.ok([...app.extract, ...app.levels.flatMap((l) => l.extract)].length > 0, `${id} extracts objects`);
  }
  assert.deepEqual(r.kb.applications.filter((a) => a.generic).map((a) => a.id), ['generic-forum', 'generic-news', 'generic-blog']);
});

test('knowledge-base.xsd declares exactly the elements and attributes the parser accepts', async () => {
  const read = readXml(await repoFile('knowledge-base/knowledge-base.xsd'));
  assert.ok(read.ok);
  const elements = new Set<string>();
  const attributes = new Set<string>();
  const walk = (el: XmlElement): void => {
    if (el.name === 'xs:element' && el.attributes.name) elements.add(el.attributes.name);
    if (el.name === 'xs:attribute' && el.attributes.name) attributes.add(el.attributes.name);
    el.children.forEach(walk);
  };
  walk(read.root);
  assert.deepEqual([...elements].sort(), Object.keys(KB_SCHEMA).sort());
  const parserAttributes = new Set(Object.values(KB_SCHEMA).flatMap((s) => Object.keys(s.attrs)).filter((a) => a !== 'xmlns'));
  assert.deepEqual([...attributes].sort(), [...parserAttributes].sort());
});

test('the XML examples of docs/knowledge-base.md are valid knowledge bases', async () => {
  const doc = await repoFile('docs/knowledge-base.md');
  const examples = [...doc.matchAll(/```xml\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(examples.length >= 1);
  for (const xml of examples) {
    const r = parseKnowledgeBase(xml);
    assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
  }
});
