import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/run-cli';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations, MIGRATIONS_DIR } from '../../../worker/store/migrator';

// The CLI's mistakes an archivist makes: each gets exit code 2 and one clear message, never a stack trace.
test('the CLI answers bad input with exit code 2 and a message, not a stack trace', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-errors-'));
  try {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const badIcd = join(dir, 'bad-icd.json');
    writeFileSync(badIcd, JSON.stringify({ name: 'bad', seeds: ['not a url'], politeness: { minDelayMs: -5 } }));
    const brokenJson = join(dir, 'broken.json');
    writeFileSync(brokenJson, '{"name": "x", seeds: []}');
    const arrayJson = join(dir, 'array.json');
    writeFileSync(arrayJson, '["http://127.0.0.1:9/"]');
    const misspelt = join(dir, 'misspelt.json');
    writeFileSync(misspelt, JSON.stringify({ name: 'typo', seeds: ['http://127.0.0.1:9/'], scope: { maxPage: 5 }, politness: { enabled: false } }));
    const multiLine = join(dir, 'multi-line.json');
    writeFileSync(multiLine, '{\n  "name": "x",\n  "keywords": ["a", "b",],\n  "seeds": []\n}\n');
    const stringSeeds = join(dir, 'string-seeds.json');
    writeFileSync(stringSeeds, JSON.stringify({ name: 'x', seeds: 'http://127.0.0.1:9/' }));
    const theWho = join(dir, 'the-who.json');
    writeFileSync(theWho, JSON.stringify({ name: 'band', seeds: ['http://127.0.0.1:9/'], focus: { enabled: true, keywords: [{ term: 'The Who' }] } }));
    const cases: Array<{ args: string[]; message: RegExp }> = [
      // A keyword of stop words only counted for nothing, without a word.
      { args: ['crawl', theWho, '--out', join(dir, 'o11')], message: /^Invalid ICD:\n {2}focus\.keywords\.0\.term: “The Who” gives no word the focus can match: .* give it as an entity\n$/ },
      // A misspelt field was dropped without a word, its setting left at the default.
      { args: ['crawl', misspelt, '--out', join(dir, 'o6')], message: /^Invalid ICD:\n {2}scope\.maxPage: Unknown field.*\n {2}politness: Unknown field/ },
      // A flag is validated as the ICD field it sets.
      { args: ['crawl', '--seed', 'http://127.0.0.1:9/', '--out', join(dir, 'o7'), '--concurrency', '10000'], message: /^Invalid ICD:\n {2}politeness\.concurrency: At most 512/ },
      { args: ['crawl', '--seed', 'http://127.0.0.1:9/', '--out', join(file, 'sub')], message: /^Cannot use --out .*a-file[/\\]sub: .*a part of its path is a file\n$/ },
      // Before: "EEXIST: file already exists, mkdir …".
      { args: ['crawl', '--seed', 'http://127.0.0.1:9/', '--out', file], message: /^Cannot use --out .*a-file: .*a-file is a file, not a folder\n$/ },
      // Before, Node's recursive mkdir spun at 100% CPU for ever where Linux refuses new folders.
      { args: ['crawl', '--seed', 'http://127.0.0.1:9/', '--out', '/proc/tidemark-out'], message: /^Cannot use --out \/proc\/tidemark-out: \/proc\/tidemark-out cannot be made: its file system takes no new folders there\n$/ },
      // Before, the message quoted the file with its line breaks, over several lines.
      { args: ['crawl', multiLine, '--out', join(dir, 'o8')], message: /^The ICD file .*multi-line\.json is not valid JSON: [^\n]*\n$/ },
      // Before, the string was spread into its characters: one "Not a valid http(s) URL" for each.
      { args: ['crawl', stringSeeds, '--out', join(dir, 'o9')], message: /^Invalid ICD:\n {2}seeds: Must be a list, not text\n$/ },
      { args: ['crawl', stringSeeds, '--seed', 'http://127.0.0.1:9/', '--out', join(dir, 'o10')], message: /^Invalid ICD:\n {2}seeds: Must be a list, not text\n$/ },
      { args: ['crawl', badIcd, '--out', join(dir, 'o1')], message: /^Invalid ICD:\n {2}seeds\.0: .*\n {2}politeness\.minDelayMs: At least 0/ },
      { args: ['crawl', join(dir, 'missing.json'), '--out', join(dir, 'o2')], message: /^Cannot read the ICD file .*missing\.json: ENOENT/ },
      { args: ['crawl', brokenJson, '--out', join(dir, 'o4')], message: /^The ICD file .*broken\.json is not valid JSON: / },
      { args: ['crawl', arrayJson, '--out', join(dir, 'o5')], message: /^The ICD file .*array\.json must hold one JSON object/ },
      { args: ['crawl', '--seed', 'http://127.0.0.1:9/', '--out', join(dir, 'o3'), '--max-pages', 'ten'], message: /--max-pages must be a positive whole number/ },
    ];
    for (const { args, message } of cases) {
      const run = await runCli(args).done;
      assert.equal(run.code, 2, `${args.join(' ')} → ${run.stderr}`);
      assert.match(run.stderr, message);
      assert.doesNotMatch(run.stderr, /^\s+at /m, `no stack trace for ${args.join(' ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Before: "unable to open database file", SQLite's words about the lock file it could not create.
// As root (who may write anywhere) the CLI runs as nobody; the repository must be readable by it.
test('an --out folder the user may not write to is one line saying so, exit code 2', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-readonly-'));
  try {
    chmodSync(dir, 0o755);
    const readOnly = join(dir, 'read-only');
    mkdirSync(readOnly, { mode: 0o555 });
    chmodSync(readOnly, 0o555);
    const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    for (const out of [readOnly, join(readOnly, 'sub')]) {
      const run = await runCli(['crawl', '--seed', 'http://127.0.0.1:9/', '--out', out], { cwd: dir, ...asOther }).done;
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /^Cannot use --out .*read-only(\/sub)?: .*read-only(\/sub)? cannot be written to: permission denied\n$/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A crawl an older version started with settings the rules now refuse (this exclude pattern was
// accepted before de68208) is not resumed from --seed alone: before, the run said "Invalid ICD" of the
// --seed or ICD file it was given, which were valid, and not which crawl or why; now it says how to
// correct them (an ICD file of its seeds: cli-stored-icd-repair.test.ts).
test('a crawl in --out whose stored ICD this version refuses is named as such, not as an invalid ICD given, with how to correct it', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-stored-icd-'));
  try {
    const out = join(dir, 'out');
    mkdirSync(out);
    const db = openSqlite(join(out, 'tidemark-state.db'));
    applyMigrations(db, MIGRATIONS_DIR);
    // The row as the CLI of that version wrote it (its stored definition is the ICD it parsed).
    const definition = JSON.stringify({ name: 'CLI crawl of http://127.0.0.1:9/', seeds: ['http://127.0.0.1:9/'], scope: { exclude: ['(a+)+$'] } });
    db.prepare("INSERT INTO Icd (name, definition, updatedAt) VALUES ('old', ?, CURRENT_TIMESTAMP)").run(definition);
    db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired) VALUES (1, ?, 'old', 'paused', 'run')").run(definition);
    db.close();
    const run = await runCli(['crawl', '--seed', 'http://127.0.0.1:9/', '--out', out]).done;
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /^tidemark: the crawl in .*out was started by an earlier version of Tidemark with settings this version refuses, so it cannot be resumed as it is:\n {2}scope\.exclude\.0: [^\n]*repetition inside a repetition[^\n]*\nTo resume it, give an ICD file of its seeds with these settings corrected \(tidemark crawl FILE --out .*out\): they replace the stored ones\. Or choose another --out for a new crawl\.\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

