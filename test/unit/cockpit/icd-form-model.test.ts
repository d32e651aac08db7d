import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema, parseIcd } from '../../../worker/icd/schema';
import { fieldErrors, formValuesFromIcd, icdFileName, icdFromFormValues, icdFromJsonText, validateForm } from '../../../app/icds/icd-form-model';
import { SETTING_FIELDS, knowledgeBaseOptions, touchesAdvanced } from '../../../app/icds/settings-fields';

test('a new form starts from the schema defaults and an empty name and seed list', () => {
  const v = formValuesFromIcd(null);
  assert.equal(v.name, '');
  assert.equal(v.seeds, '');
  assert.equal(v.maxDepth, '20');
  assert.equal(v.respectRobots, true);
  assert.equal(v.updateFunction, 'AVG');
  assert.equal(v.relevanceThreshold, '0.333');
});

test('form values round-trip through the ICD, keeping what the form does not show', () => {
  const stored = icdSchema.parse({
    name: 'Elections',
    seeds: ['https://news.example.org/', 'https://b.example.org/'],
    scope: { allowedHosts: ['media.example.org'], exclude: ['/login'], maxDepth: 5 },
    politeness: { minDelayMs: 500, maxDelayMs: 9000 },
    focus: {
      enabled: true,
      keywords: [{ term: 'election', weight: 2 }],
      entities: [{ name: 'Electoral Commission', type: 'organisation', aliases: ['EC', 'the Commission'] }, { name: 'Barack Obama', type: 'person', aliases: ['Obama, Barack'] }],
      urlPatterns: [{ pattern: '/politics/', weight: 0.5 }],
      topicTerms: { elect: 0.9 },
      batch: { enabled: true, bl: 5 },
    },
    warc: { gzipLevel: 6 },
    coherence: { mode: 'visit-revisit' },
  });
  const again = icdSchema.parse(icdFromFormValues(formValuesFromIcd(stored), stored));
  assert.deepEqual(again, stored);
});

test('a scope pattern with a space at either end is refused, in the CLI as in the form: URLs hold no spaces, so it never matched', () => {
  // The form trims its lines: such a pattern, in a file, ran as written in the CLI and was saved trimmed by the form.
  for (const exclude of [['search\\?q= '], [' /login'], [' ']]) {
    const parsed = icdSchema.safeParse({ name: 'x', seeds: ['https://example.org/'], scope: { exclude } });
    assert.equal(parsed.success, false, JSON.stringify(exclude));
    assert.match(parsed.error!.issues[0].message, /space at its start or end never matches/);
  }
  assert.equal(icdSchema.safeParse({ name: 'x', seeds: ['https://example.org/'], scope: { include: ['/a b/'] } }).success, true, 'a space inside stays the archivist\'s business');
});

test('the shared schema\'s issues land on the field that caused them, list items named by line', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/\nnot a url', exclude: '(' };
  v.keywords = [{ term: '', weight: '2' }];
  v.minDelayMs = '5000';
  v.maxDelayMs = '10';
  const { errors } = validateForm(v, null);
  assert.deepEqual(errors.seeds, ['Line 2: Not a valid http(s) URL: a URL starts with https:// or http://']);
  assert.deepEqual(errors.exclude, ['Line 1: Not a valid regular expression: unterminated group']);
  assert.equal(errors['keywords.0.term']?.length, 1);
  assert.deepEqual(errors.maxDelayMs, ['Max delay must be at least the min delay']);
  assert.equal(errors.name, undefined);
});

test('number fields take decimal only: 0x10 and 0b1 are refused, not read as 16 and 1', () => {
  for (const [field, value] of [['maxDepth', '0x10'], ['maxPages', '0b1'], ['minDelayMs', 'Infinity']] as const) {
    const { errors } = validateForm({ ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/', [field]: value }, null);
    assert.deepEqual(errors[field], ['Not a number: use digits, and a point for decimals'], `${field} = ${value}`);
  }
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/', maxDepth: ' 12 ', relevanceThreshold: '1e-3' };
  v.settings = { ...v.settings, maxBytes: '0x10' };
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(Object.keys(errors), ['maxBytes']);
  assert.equal((icd as { scope: { maxDepth: number } }).scope.maxDepth, 12);
});

test('a valid form has no errors; empty number fields fall back to the defaults', () => {
  const v = { ...formValuesFromIcd(null), name: 'Demo', seeds: 'http://127.0.0.1:3001/', maxPages: '' };
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(errors, {});
  assert.equal(icdSchema.parse(icd).scope.maxPages, 10_000);
});

test('server issues (400 bodies) are grouped the same way; unknown paths go to the form', () => {
  const errors = fieldErrors([
    { path: ['seeds', 0], message: 'Not a valid http(s) URL' },
    { path: ['focus', 'moduleWeights', 'text'], message: 'Too small' },
    { path: ['limits', 'maxRetries'], message: 'Too big' },
    { path: ['focus', 'topicTerms', 'elect'], message: 'Expected number' },
  ]);
  assert.deepEqual(errors, { seeds: ['Line 1: Not a valid http(s) URL'], 'moduleWeights.text': ['Too small'], maxRetries: ['Too big'], form: ['Expected number'] });
});

test('the language field sets focus.language, lower-cased; emptied, it clears the stored one', () => {
  const base = parseIcd({ name: 'Langue', seeds: ['https://a.example/'], focus: { language: 'fra' } });
  const values = formValuesFromIcd(base);
  assert.equal(values.language, 'fra');
  assert.equal(icdFromFormValues({ ...values, language: 'DEU' }, base).focus?.language, 'deu');
  assert.equal('language' in icdFromFormValues({ ...values, language: ' ' }, base).focus!, false);
});

test('capture and advanced settings reach the ICD: choices, lists, numbers, sizes in MB', () => {
  const v = formValuesFromIcd(null);
  assert.equal(v.settings.captureMode, 'snapshot');
  assert.equal(v.settings.maxBodyBytes, '50');
  assert.equal(v.settings.aahEnabled, true);
  Object.assign(v, { name: 'Feeds', seeds: 'https://news.example.org/' });
  Object.assign(v.settings, {
    captureMode: 'visit-revisit',
    recrawlIntervalMinutes: '1440',
    feeds: 'https://news.example.org/rss\n\n https://news.example.org/atom ',
    aahEnabled: false,
    maxBodyBytes: '2.5',
    rotateBytes: '',
    queryHandling: 'strip',
    ignoreRobotsFor: 'https://news.example.org/archive/',
  });
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(errors, {});
  const parsed = parseIcd(icd);
  assert.equal(parsed.coherence.mode, 'visit-revisit');
  assert.equal(parsed.coherence.recrawlIntervalMinutes, 1440);
  assert.deepEqual(parsed.coherence.feeds, ['https://news.example.org/rss', 'https://news.example.org/atom']);
  assert.equal(parsed.aah.enabled, false);
  assert.equal(parsed.limits.maxBodyBytes, 2.5 * 1024 * 1024);
  assert.equal(parsed.warc.rotateBytes, 1024 ** 3, 'an emptied field takes the default');
  assert.equal(parsed.scope.queryHandling, 'strip');
  assert.deepEqual(parsed.politeness.ignoreRobotsFor, ['https://news.example.org/archive/']);
});

test('an invalid setting is reported on its own field, sizes in the unit the form shows', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/' };
  v.settings = { ...v.settings, gzipLevel: '12', maxBodyBytes: '0', feeds: 'https://ok.example.org/feed\nfeed.xml', minFeedPollMinutes: '0' };
  const { errors } = validateForm(v, null);
  assert.equal(errors.gzipLevel?.length, 1);
  assert.match(errors.gzipLevel![0]!, /9/);
  assert.equal(errors.maxBodyBytes?.length, 1);
  assert.match(errors.maxBodyBytes![0]!, /0\.000977 MB/, 'the schema\'s 1,024-byte minimum, said in MB');
  assert.deepEqual(errors.feeds, ['Line 2: Not a valid http(s) URL: a URL starts with https:// or http://']);
  assert.equal(errors.minFeedPollMinutes?.length, 1);
  assert.equal(errors.form, undefined);
  assert.ok(touchesAdvanced(Object.keys(errors)), 'gzip level and response size are advanced settings');
  assert.ok(!touchesAdvanced(['feeds', 'minFeedPollMinutes', 'name']));
});

test('every setting of the form names a real ICD field, and keeps a stored value it does not change', () => {
  const defaults = icdSchema.parse({ name: 'x', seeds: ['http://x.invalid/'] }) as unknown as Record<string, Record<string, unknown>>;
  for (const f of SETTING_FIELDS) assert.ok(f.path[1] in defaults[f.path[0]]!, `${f.path.join('.')} is in the schema`);
  const stored = icdSchema.parse({ name: 'x', seeds: ['http://x.invalid/'], politeness: { enabled: false }, limits: { maxDecodedBytes: 3_000_001 } });
  const again = icdSchema.parse(icdFromFormValues(formValuesFromIcd(stored), stored));
  assert.equal(again.politeness.enabled, false);
  assert.equal(again.limits.maxDecodedBytes, 3_000_001);
});

test('an ICD file loads when it is JSON and a valid ICD; otherwise it says why, field by field', () => {
  const text = JSON.stringify({ name: 'From the CLI', seeds: ['https://a.example.org/'], politeness: { enabled: false }, focus: { topicTerms: { tide: 0.5 } } });
  const loaded = icdFromJsonText(text);
  assert.ok('icd' in loaded);
  // What the form does not show survives a round through it.
  const again = parseIcd(icdFromFormValues(formValuesFromIcd(loaded.icd), loaded.icd));
  assert.equal(again.politeness.enabled, false);
  assert.deepEqual(again.focus.topicTerms, { tide: 0.5 });
  assert.equal(again.name, 'From the CLI');

  const notJson = icdFromJsonText('{"name": ');
  assert.ok('errors' in notJson && /^Not JSON/.test(notJson.errors[0]!));
  const invalid = icdFromJsonText(JSON.stringify({ name: 'x', seeds: ['ftp://a/'], warc: { gzipLevel: 12 } }));
  assert.ok('errors' in invalid);
  assert.deepEqual(invalid.errors.map((e) => e.split(':')[0]).sort(), ['seeds.0', 'warc.gzipLevel']);
  assert.ok('errors' in icdFromJsonText('[]'));
  const misspelt = icdFromJsonText(JSON.stringify({ name: 'x', seeds: ['https://a.example.org/'], scope: { maxPage: 50 } }));
  assert.deepEqual(misspelt, { errors: ['scope.maxPage: Unknown field (misspelt?): it would be ignored'] });
});

test('an ICD file is named after the definition', () => {
  assert.equal(icdFileName('Elections 2026: national'), 'elections-2026-national.icd.json');
  assert.equal(icdFileName('Événements à Paris'), 'evenements-a-paris.icd.json');
  assert.equal(icdFileName('***'), 'crawl-definition.icd.json');
});

test('a number field holding what is not a number says so, in words, instead of falling back to the default', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/', maxPages: '12e', maxDepth: '1.5', minDelayMs: '-5' };
  const { errors } = validateForm(v, null);
  assert.deepEqual(errors.maxPages, ['Not a number: use digits, and a point for decimals']);
  assert.deepEqual(errors.maxDepth, ['A whole number (no decimals)']);
  assert.deepEqual(errors.minDelayMs, ['At least 0']);
});

test('the AAH\'s knowledge base: "default" for a new form, round-trips, kept while the AAH is off, and its issues land on its select', () => {
  assert.equal(formValuesFromIcd(null).settings.aahKnowledgeBase, 'default');
  const stored = icdSchema.parse({ name: 'Boards', seeds: ['https://forum.example.org/'], aah: { enabled: false, knowledgeBase: 'forums' } });
  const values = formValuesFromIcd(stored);
  assert.deepEqual([values.settings.aahEnabled, values.settings.aahKnowledgeBase], [false, 'forums']);
  assert.deepEqual(icdSchema.parse(icdFromFormValues(values, stored)).aah, { enabled: false, knowledgeBase: 'forums' });
  const chosen = { ...values, settings: { ...values.settings, aahEnabled: true, aahKnowledgeBase: 'news.v2' } };
  assert.deepEqual(icdSchema.parse(icdFromFormValues(chosen, stored)).aah, { enabled: true, knowledgeBase: 'news.v2' });
  const bad = { ...values, settings: { ...values.settings, aahKnowledgeBase: 'two words' } };
  assert.deepEqual(validateForm(bad, stored).errors, { aahKnowledgeBase: ['Name: letters, digits, . _ - (at most 64)'] });
  // The 400 of POST /api/crawls for a knowledge base not stored names the same field.
  assert.deepEqual(Object.keys(fieldErrors([{ path: ['aah', 'knowledgeBase'], message: 'No knowledge base “x” is stored…' }])), ['aahKnowledgeBase']);
  const field = SETTING_FIELDS.find((f) => f.id === 'aahKnowledgeBase');
  assert.deepEqual([field?.group, field?.enabledBy], ['capture', 'aahEnabled']);
});

test('the knowledge-base select offers the stored ones, and keeps a name the ICD has that is not stored, saying so', () => {
  assert.deepEqual(knowledgeBaseOptions(['default', 'forums'], 'forums'), [{ value: 'default', label: 'default' }, { value: 'forums', label: 'forums' }]);
  assert.deepEqual(knowledgeBaseOptions(['default'], 'gone'), [
    { value: 'gone', label: 'gone (not stored: a crawl of it is refused)' },
    { value: 'default', label: 'default' },
  ]);
  // While the list loads: the ICD's own, as it is.
  assert.deepEqual(knowledgeBaseOptions(undefined, 'default'), [{ value: 'default', label: 'default' }]);
});

test('a stored ICD the schema now refuses (stored before a bound was added) is shown as stored, with its errors, not reset to the defaults', () => {
  // Stored before safe-regex and the module-weight bound: both refused now, the rest valid.
  const stored = {
    name: 'Older',
    seeds: ['https://example.org/'],
    scope: { maxPages: 5, exclude: ['/login', '(a+)+$'], allowedHosts: ['media.example.org'], queryHandling: 'strip' as const },
    politeness: { minDelayMs: 4000, concurrency: 3 },
    focus: { enabled: true, keywords: [{ term: 'tide', weight: 2 }], entities: [{ name: 'EC', type: 'organisation' as const, aliases: ['Commission'] }], moduleWeights: { text: 5000 } },
    coherence: { feeds: ['https://example.org/feed'] },
  };
  assert.equal(icdSchema.safeParse(stored).success, false);
  const v = formValuesFromIcd(stored);
  assert.equal(v.maxPages, '5');
  assert.equal(v.exclude, '/login\n(a+)+$');
  assert.equal(v.allowedHosts, 'media.example.org');
  assert.equal(v.minDelayMs, '4000');
  assert.equal(v.maxDelayMs, '30000', 'what it does not set still shows the default');
  assert.equal(v.focusEnabled, true);
  assert.deepEqual(v.keywords, [{ term: 'tide', weight: '2' }]);
  assert.deepEqual(v.entities, [{ name: 'EC', type: 'organisation', aliases: 'Commission' }]);
  assert.equal(v.moduleWeights.text, '5000');
  assert.equal(v.moduleWeights.spam, '0.3');
  assert.equal(v.settings.concurrency, '3');
  assert.equal(v.settings.queryHandling, 'strip');
  assert.equal(v.settings.feeds, 'https://example.org/feed');
  // Saving it as shown is refused at the two fields at fault, instead of storing the defaults.
  const { errors } = validateForm(v, stored);
  assert.deepEqual(Object.keys(errors).sort(), ['exclude', 'moduleWeights.text']);
  // A value of the wrong type falls back to the default rather than breaking the form.
  const odd = formValuesFromIcd({ name: 'Odd', seeds: ['https://example.org/'], scope: { exclude: 'not a list', maxDepth: 'deep' }, focus: { entities: [{ name: 'X', type: 'person', aliases: 'A' }] } } as never);
  assert.equal(odd.exclude, '');
  assert.equal(odd.maxDepth, '20');
  assert.deepEqual(odd.entities, [{ name: 'X', type: 'person', aliases: '' }]);
});

test('min delay above max delay is reported with the other politeness errors in one go, not only once they are fixed', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/', minDelayMs: '5000', maxDelayMs: '10' };
  v.settings = { ...v.settings, concurrency: '0', delayFactor: 'fast' };
  const { errors } = validateForm(v, null);
  assert.deepEqual(errors.maxDelayMs, ['Max delay must be at least the min delay']);
  assert.deepEqual(errors.concurrency, ['At least 1']);
  assert.equal(errors.delayFactor?.length, 1);
  // Either delay itself invalid: that field's error alone, no comparison with a value that is not a number.
  const bad = validateForm({ ...v, minDelayMs: 'soon' }, null).errors;
  assert.equal(bad.maxDelayMs, undefined);
  assert.equal(bad.minDelayMs?.length, 1);
});

test('a pattern that does not compile says why, with a hint for a Heritrix inline flag and for a shell glob', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/', exclude: '/ok/\n(\n(?i)\\.PDF$\n*.pdf' };
  assert.deepEqual(validateForm(v, null).errors.exclude, [
    'Line 2: Not a valid regular expression: unterminated group',
    'Line 3: Not a valid regular expression: invalid group: JavaScript has no inline flags such as (?i): write both cases, as [Pp][Dd][Ff]',
    'Line 4: Not a valid regular expression: nothing to repeat: a glob such as *.pdf is written \\.pdf$ here',
  ]);
});

test('a seed or feed written without its scheme is told what a URL starts with', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/\nexample.org/news\nwww.example.org\nftp://example.org/\nhttps://' };
  assert.deepEqual(validateForm(v, null).errors.seeds, [
    'Line 2: Not a valid http(s) URL: a URL starts with https:// or http://',
    'Line 3: Not a valid http(s) URL: a URL starts with https:// or http://',
    'Line 4: Not a valid http(s) URL',
    'Line 5: Not a valid http(s) URL',
  ]);
  v.settings = { ...v.settings, feeds: 'example.org/feed.xml' };
  assert.deepEqual(validateForm(v, null).errors.feeds, ['Line 1: Not a valid http(s) URL: a URL starts with https:// or http://']);
});

test('"Keep cookies the sites set": on for a new form, round-trips when off, and its issues land on its checkbox', () => {
  assert.equal(formValuesFromIcd(null).cookies, true);
  const stored = icdSchema.parse({ name: 'x', seeds: ['http://x.invalid/'], cookies: false });
  const values = formValuesFromIcd(stored);
  assert.equal(values.cookies, false);
  assert.equal(icdSchema.parse(icdFromFormValues(values, stored)).cookies, false);
  assert.equal(icdSchema.parse(icdFromFormValues({ ...values, cookies: true }, stored)).cookies, true);
  assert.deepEqual(Object.keys(fieldErrors([{ path: ['cookies'], message: 'Expected boolean' }])), ['cookies']);
});

// An IPv6 allowed host is accepted as written: the form, the ICD schema and the scope take `::1` and `[::1]` alike.
test('IPv6 allowed hosts, bare or in brackets, in capitals, are accepted by the form and the ICD without an error', () => {
  const v = { ...formValuesFromIcd(null), name: 'IPv6', seeds: 'http://[::1]:8080/', allowedHosts: '::1\n[::1]:8080\n2001:DB8::A' };
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(errors, {});
  assert.deepEqual(icdSchema.parse(icd).scope.allowedHosts, ['::1', '[::1]:8080', '2001:db8::a']);
});
