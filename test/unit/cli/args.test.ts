import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCliArgs } from '../../../worker/cli/args';
import { icdForCommand } from '../../../worker/cli/main';
import { seedsCrawlName } from '../../../worker/cli/resume-icd';
import { ICD_NAME_MAX } from '../../../worker/icd/schema';

test('the crawl command: repeated seeds, numbers and switches', () => {
  const cmd = parseCliArgs(['crawl', '--seed', 'http://a.test/', '--seed', 'http://b.test/', '--out', 'o', '--max-pages', '20', '--concurrency', '4', '--no-politeness', '--json', '--wacz', '--page-text', '--progress', '2.5']);
  assert.deepEqual(cmd, {
    command: 'crawl', icdPath: undefined, seeds: ['http://a.test/', 'http://b.test/'], out: 'o', maxPages: 20, concurrency: 4, politeness: false, json: true, wacz: true, pageText: true, progressSeconds: 2.5,
  });
  const withIcd = parseCliArgs(['crawl', 'icd.json', '--out', 'o']);
  assert.equal(withIcd.command, 'crawl');
  if (withIcd.command !== 'crawl') return;
  assert.equal(withIcd.icdPath, 'icd.json');
  assert.equal(withIcd.politeness, true, 'politeness stays on unless switched off');
  assert.equal(withIcd.wacz, false, 'no package unless asked for');
});

test('bad arguments are refused with a message that says what is wrong', () => {
  const refused = (argv: string[], message: RegExp) => assert.throws(() => parseCliArgs(argv), message, argv.join(' '));
  refused(['crawl', '--seed', 'http://a.test/'], /--out DIR is required/);
  refused(['crawl', '--out', 'o'], /an ICD file or at least one --seed/);
  refused(['fetch', '--out', 'o'], /Unknown command "fetch"/);
  refused([], /Give a command, crawl or check\./);
  refused(['--json'], /Give a command, crawl or check\./);
  refused(['crawl', 'a.json', 'b.json', '--out', 'o'], /Unexpected arguments: b\.json/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--max-pages', '0'], /--max-pages must be a positive whole number, got "0"/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--concurrency', '2.5'], /--concurrency must be a positive whole number/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--bogus'], /Unknown option '--bogus'/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--page-text'], /--page-text goes with --wacz/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--progress=-1'], /--progress must be a number of seconds from 0 to 86,400 \(a day\), got "-1"/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--progress', 'often'], /--progress must be a number of seconds/);
  // Numbers in decimal digits only: Number() read 0x3 as 3, 1e1 as 10, and took " 2 ".
  for (const value of ['0x3', '1e1', ' 2 ', '0b1', '+3', '9007199254740993']) {
    refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--max-pages', value], /--max-pages must be a positive whole number/);
  }
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--concurrency', ' 2 '], /--concurrency must be a positive whole number/);
  // Past ~24.8 days Node's timer fired every millisecond: 31,968 progress lines in a 35-second crawl.
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--progress', '3000000'], /--progress must be a number of seconds from 0 to 86,400/);
  refused(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--progress', '1e10'], /--progress must be a number of seconds/);
  assert.equal((parseCliArgs(['crawl', '--seed', 'http://a.test/', '--out', 'o', '--progress', '0.5', '--max-pages', '007']) as { progressSeconds?: number }).progressSeconds, 0.5);
  refused(['check'], /Give the WARC files, CDXJ indexes or folders to check/);
  refused(['check', 'out', '--out', 'o'], /--out is an option of crawl, not of check/);
  refused(['check', 'out', '--wacz'], /--wacz is an option of crawl/);
  refused(['check', 'out', '--progress', '1'], /--progress is an option of crawl/);
});

test('the check command: any number of paths, and --json', () => {
  assert.deepEqual(parseCliArgs(['check', 'out', 'a.warc.gz', '--json']), { command: 'check', paths: ['out', 'a.warc.gz'], json: true });
  assert.deepEqual(parseCliArgs(['check', 'index.cdxj']), { command: 'check', paths: ['index.cdxj'], json: false });
});

test('--help is a command of its own (usage on stdout, exit 0), not an error', () => {
  assert.deepEqual(parseCliArgs(['--help']), { command: 'help' });
  assert.deepEqual(parseCliArgs(['crawl', '-h']), { command: 'help' });
});

// Found by an exploratory session (international names): the name made of a long first seed (a path
// in Japanese, nine characters a letter once escaped) was over the 200 characters a name may have,
// and `tidemark crawl --seed URL` refused to run: "Invalid ICD: name: At most 200 characters".
test('a crawl from one long seed is named by it, cut to the longest name a definition may have', () => {
  for (const seed of [`http://a.test/${'日本語'.repeat(60)}`, `http://a.test/${'%E6%97%A5'.repeat(40)}`, `http://a.test/${'👋'.repeat(100)}`]) {
    const cmd = parseCliArgs(['crawl', '--seed', seed, '--out', 'o']);
    assert.equal(cmd.command, 'crawl');
    if (cmd.command !== 'crawl') return;
    const icd = icdForCommand(cmd);
    assert.ok(icd.name.length <= ICD_NAME_MAX && icd.name.endsWith('…') && icd.name.startsWith('CLI crawl of http://a.test/'), icd.name);
    assert.equal(icd.name, seedsCrawlName(seed), 'the name a resume compares with');
    assert.doesNotThrow(() => encodeURIComponent(icd.name), 'no half of a character left at the cut');
  }
  assert.equal(seedsCrawlName('http://a.test/'), 'CLI crawl of http://a.test/');
});
