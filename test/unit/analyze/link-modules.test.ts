import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileEntities, compileSpamFilter, compileUrlPatterns, createPageAnalyzer } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

test('URL patterns: weights move the score from neutral 0.5, clamped to [0,1]', () => {
  const s = compileUrlPatterns([{ pattern: '/climate/', weight: 0.8 }, { pattern: '/tag/', weight: -0.6 }, { pattern: '/ice', weight: 0.6 }]);
  assert.equal(s.active, true);
  assert.equal(s.score('https://n.example/sport/1'), 0.5);
  assert.equal(s.score('https://n.example/climate/1'), 0.9);
  assert.equal(s.score('https://n.example/tag/x'), 0.2);
  assert.equal(s.score('https://n.example/climate/ice'), 1);
  assert.equal(compileUrlPatterns([]).active, false);
});

test('spam filter: default list, subdomains, user patterns, smell penalties', () => {
  const f = compileSpamFilter(['spammy.example', 're:/free-money/']);
  assert.deepEqual(f.check('https://ad.doubleclick.net/x'), { blacklisted: true, matched: 'doubleclick.net', score: 0 });
  assert.equal(f.check('https://www.spammy.example/').blacklisted, true);
  assert.equal(f.check('https://blog.example/free-money/now').matched, 're:/free-money/');
  assert.equal(f.check('https://best-cheap-online-casino-deals.example/').blacklisted, true);
  assert.equal(f.check('https://notspammy.example/').blacklisted, false, 'a suffix is not a subdomain');
  assert.equal(f.check('https://news.example/story').score, 1);
  assert.ok(f.check('https://buy-now-cheap-stuff.example/?utm_source=x').score < 1);
  assert.equal(compileSpamFilter([], { includeDefaults: false }).check('https://doubleclick.net/').blacklisted, false);
});

// Found by an exploratory session (international names): a blacklist entry in its own script was
// compared with the URLs' hosts, which are in punycode, and never matched.
test('spam filter: a host entry in its own script, in capitals or with a trailing dot matches the host as URLs write it', () => {
  const f = compileSpamFilter(['casino-bücher.example', '.онлайн', 'Spam.Example.'], { includeDefaults: false });
  assert.deepEqual(f.check('https://www.xn--casino-bcher-klb.example/a'), { blacklisted: true, matched: 'casino-bücher.example', score: 0 });
  assert.equal(f.check('https://xn--80adxhks.xn--80asehdb/').matched, '.онлайн', 'a top-level domain in Cyrillic');
  assert.equal(f.check('https://spam.example/x').matched, 'Spam.Example.');
  assert.equal(f.check('https://bücher.example/').blacklisted, false);
});

test('spam filter: a URL met again gets the same verdict, past the remembered ones too', () => {
  const f = compileSpamFilter(['spammy.example']);
  const urls = Array.from({ length: 25_000 }, (_, i) => (i % 3 === 0 ? `https://www.spammy.example/${i}` : `https://buy-now-cheap-stuff.example/${i}?utm_source=x`));
  const first = urls.map((u) => f.check(u));
  const again = urls.map((u) => f.check(u));
  assert.deepEqual(again, first);
  assert.deepEqual(first[0], { blacklisted: true, matched: 'spammy.example', score: 0 });
  assert.equal(first[1]!.blacklisted, false);
  assert.ok(first[1]!.score < 1);
  assert.equal(f.check('not a url').matched, 'unparsable URL');
  assert.equal(f.check('not a url').matched, 'unparsable URL');
});

test('spam-blacklisted links are excluded with reason spam and priority 0', () => {
  const a = createPageAnalyzer({
    topicVector: new Map([['ice', 1]]), analyzer: createTextAnalyzer({ language: 'eng' }), documentFrequencies: new DocumentFrequencies(),
  });
  const r = a.analyze({ url: 'https://n.example/', text: 'ice ice', links: [{ url: 'https://taboola.com/ice', anchorText: 'ice', context: 'ice' }] });
  assert.equal(r.links[0]!.excluded, 'spam');
  assert.equal(r.links[0]!.excludedBy, 'taboola.com');
  assert.equal(r.links[0]!.priority, 0);
});

test('entities: names or aliases near the link score 1, elsewhere on the page half the document score', () => {
  const m = compileEntities([{ name: 'Greta Thunberg', aliases: ['Thunberg'] }, { name: 'IPCC', aliases: ['Intergovernmental Panel on Climate Change'] }]);
  assert.deepEqual(m.mentioned('The IPCC and greta  thunberg spoke.'), ['Greta Thunberg', 'IPCC']);
  assert.deepEqual(m.mentioned('IPCCX is not it'), []);
  assert.equal(m.documentScore('Thunberg spoke.'), 0.5);
  assert.equal(m.documentScore('Thunberg and the Intergovernmental Panel on Climate Change.'), 0.75);
  assert.equal(m.linkScore('Read the IPCC report', 0.5), 1);
  assert.equal(m.linkScore('Read more', 0.5), 0.25);
});

test('entity module inside the page analyzer: a link naming an entity outranks its neighbour', () => {
  const a = createPageAnalyzer({
    topicVector: new Map([['climat', 1]]), analyzer: createTextAnalyzer({ language: 'eng' }), documentFrequencies: new DocumentFrequencies(),
    entities: [{ name: 'IPCC' }],
  });
  const r = a.analyze({
    url: 'https://n.example/', text: 'Climate news.',
    links: [{ url: 'https://n.example/1', anchorText: 'IPCC report', context: 'The new IPCC report' }, { url: 'https://n.example/2', anchorText: 'weather', context: 'Weather today' }],
  });
  assert.equal(r.links[0]!.breakdown.scores.entity, 1);
  assert.equal(r.links[1]!.breakdown.scores.entity, 0);
  assert.ok(r.links[0]!.priority > r.links[1]!.priority);
});
