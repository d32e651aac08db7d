'use client';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { ApiError } from '../lib/client/api';
import { useAahTest, type AahTestResult, type KbError } from '../lib/client/aah';
import { CrawlPicker } from '../components/crawl-picker';
import { ruleHighlights, type Highlight } from './rule-highlights';
import { isolate } from '../lib/client/bidi-isolate';
import { previewDocument } from './preview-document';

/**
 * Try the knowledge base being edited on one page: pasted HTML, or a URL captured by a crawl.
 * Shows the detected application and level, the links each navigation action selects and the
 * objects each extraction action extracts, and highlights them on a preview of pasted HTML.
 */
export function AahTester({ xml }: { xml: string }) {
  const [mode, setMode] = useState<'html' | 'crawl'>('html');
  const [html, setHtml] = useState('');
  const [url, setUrl] = useState('https://forum.example.org/viewtopic.php?t=1');
  const [crawlId, setCrawlId] = useState('');
  const test = useAahTest();
  const [tested, setTested] = useState<{ html: string; url: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'html') {
      test.mutate({ xml, html, url });
      setTested({ html, url });
    } else {
      test.mutate({ xml, crawlId: Number(crawlId), url });
      setTested(null);
    }
  };
  const kbErrors: KbError[] = test.data?.errors.length
    ? test.data.errors
    : test.error instanceof ApiError
      ? ((test.error.body as { errors?: KbError[] } | null)?.errors ?? [])
      : [];

  return (
    <section aria-labelledby="tester-title" className="card space-y-3">
      <h2 id="tester-title" className="text-lg font-semibold">Live tester</h2>
      <form onSubmit={submit} className="space-y-3" aria-label="Test the knowledge base on a page">
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">Page source</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="tester-mode" checked={mode === 'html'} onChange={() => setMode('html')} /> Paste HTML
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="tester-mode" checked={mode === 'crawl'} onChange={() => setMode('crawl')} /> A page captured by a crawl
          </label>
        </fieldset>
        {mode === 'crawl' && (
          <CrawlPicker id="tester-crawl" value={crawlId ? Number(crawlId) : null} onChange={(id) => setCrawlId(id === null ? '' : String(id))} optionLabel={(c) => `${isolate(c.name)} #${c.id}`} required />
        )}
        <div>
          <label htmlFor="tester-url" className="mb-1 block text-sm font-medium">Page URL</label>
          <input id="tester-url" className="input font-mono" value={url} onChange={(e) => setUrl(e.target.value)} required aria-describedby="tester-url-hint" />
          <p id="tester-url-hint" className="mt-1 text-xs text-slate-600">
            {mode === 'html' ? 'Where the pasted page lives: relative links resolve against it, URL patterns match it.' : 'A URL the crawl captured.'}
          </p>
        </div>
        {mode === 'html' && (
          <div>
            <label htmlFor="tester-html" className="mb-1 block text-sm font-medium">HTML</label>
            <textarea id="tester-html" className="input font-mono text-xs" rows={6} value={html} onChange={(e) => setHtml(e.target.value)} required spellCheck={false} />
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={test.isPending} data-testid="run-tester">
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
      </form>
      {kbErrors.length > 0 ? (
        <ul role="alert" className="text-sm text-red-800">{kbErrors.map((e, i) => <li key={i}>Line {e.line}: {e.message}</li>)}</ul>
      ) : (
        <ErrorMessage error={test.error} />
      )}
      {test.data && test.data.errors.length === 0 && <TesterResult result={test.data} xml={xml} source={tested} />}
    </section>
  );
}

/** Why the AAH left the page alone, in words (the engine's PageAnalysis.skipped). */
const SKIPPED_TEXT: Record<NonNullable<AahTestResult['skipped']>, string> = {
  'page-too-large': 'the page is larger than the AAH analyses (5,000,000 characters)',
  'too-slow': "the analysis ran past the AAH's time budget for the page",
  'not-html': 'not an HTML page (another type, a redirect or an error page)',
};

function TesterResult({ result, xml, source }: { result: AahTestResult; xml: string; source: { html: string; url: string } | null }) {
  const { navigation, extraction } = result;
  const highlights = useMemo(() => ruleHighlights(xml, result), [xml, result]);
  return (
    <div className="space-y-3" data-testid="tester-result">
      {result.skipped && (
        <p role="status" className="text-sm text-amber-900" data-testid="tester-skipped">
          Not analysed: {SKIPPED_TEXT[result.skipped]}, as a crawl would skip it.
        </p>
      )}
      <p className="text-sm">
        Application:{' '}
        <strong data-testid="tester-application">{result.application ? `${result.application.name}` : 'none detected'}</strong>
        {result.application?.category && <> ({result.application.category})</>} · level: <strong data-testid="tester-level">{result.level ?? 'unknown'}</strong>
      </p>
      <div>
        <h3 className="font-semibold">Navigation actions</h3>
        {navigation.length === 0 && <p className="text-sm text-slate-600">No navigation action selected a link.</p>}
        <ul className="space-y-2 text-sm">
          {navigation.map(({ rule, follow, links }) => (
            <li key={rule} data-testid="tester-navigation" data-rule={rule} data-follow={follow} data-count={links.length}>
              <details>
                <summary className="cursor-pointer">
                  <span className="font-mono">{rule}</span>{' '}
                  <span className={follow ? 'text-emerald-800' : 'text-red-800'}>{follow ? 'follow' : 'do not follow'}</span> · {links.length} link{links.length === 1 ? '' : 's'}
                </summary>
                <ul className="ml-4 font-mono text-xs">{links.map((l) => <li key={l} className="truncate">{l}</li>)}</ul>
              </details>
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h3 className="font-semibold">Extraction actions</h3>
        {extraction.length === 0 && <p className="text-sm text-slate-600">No Web object extracted.</p>}
        <ul className="space-y-2 text-sm">
          {extraction.map(({ rule, objects }) => (
            <li key={rule} data-testid="tester-extraction" data-rule={rule} data-count={objects.length}>
              <details open>
                <summary className="cursor-pointer">
                  <span className="font-mono">{rule}</span> · {objects.length} {objects[0]!.type}
                  {objects.length === 1 ? '' : 's'}
                </summary>
                <ol className="ml-4 list-decimal space-y-1">
                  {objects.map((o, i) => (
                    <li key={i} data-testid="tester-object" data-type={o.type}>
                      <dl className="grid grid-cols-[6rem_1fr] gap-x-2 text-xs">
                        {Object.entries(o.fields).map(([name, value]) => (
                          <div key={name} className="contents">
                            <dt className="font-semibold">{name}</dt>
                            <dd className="line-clamp-2">{value}</dd>
                          </div>
                        ))}
                      </dl>
                    </li>
                  ))}
                </ol>
              </details>
            </li>
          ))}
        </ul>
      </div>
      {source && <Preview html={source.html} url={source.url} highlights={highlights} />}
    </div>
  );
}

// The legend's words are written in these colours: each reads at 4.5:1 or more on white (WCAG 1.4.3).
const COLOURS: Record<Highlight['kind'], string> = { follow: '#15803d', 'do-not-follow': '#dc2626', object: '#2563eb' };

/**
 * The pasted page in a script-less sandbox, with what each action selected outlined. It loads
 * nothing from the site (previewDocument). allow-same-origin lets the outlining read the frame's
 * document; without allow-scripts the page itself cannot use that origin.
 */
function Preview({ html, url, highlights }: { html: string; url: string; highlights: Highlight[] }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [marked, setMarked] = useState(0);
  useEffect(() => {
    const iframe = frame.current;
    if (!iframe) return;
    const mark = () => {
      const doc = iframe.contentDocument;
      if (!doc) return;
      let count = 0;
      for (const h of highlights) {
        let nodes: XPathResult;
        try {
          nodes = doc.evaluate(h.select, doc, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
        } catch {
          continue; // an expression the browser's XPath does not take: the lists above still show the result
        }
        for (let i = 0; i < nodes.snapshotLength; i++) {
          const node = nodes.snapshotItem(i);
          const el = node instanceof doc.defaultView!.Element ? node : node?.parentElement;
          if (!(el instanceof doc.defaultView!.HTMLElement)) continue;
          el.style.outline = `2px solid ${COLOURS[h.kind]}`;
          el.style.outlineOffset = '1px';
          el.title = `${h.rule} (${h.kind})`;
          count += 1;
        }
      }
      setMarked(count);
    };
    iframe.addEventListener('load', mark);
    if (iframe.contentDocument?.readyState === 'complete') mark();
    return () => iframe.removeEventListener('load', mark);
  }, [html, highlights]);
  return (
    <figure className="space-y-1">
      <figcaption className="flex flex-wrap gap-3 text-xs">
        <span className="font-semibold">Preview ({marked} elements highlighted)</span>
        <span style={{ color: COLOURS.follow }}>▮ followed links</span>
        <span style={{ color: COLOURS['do-not-follow'] }}>▮ links not followed</span>
        <span style={{ color: COLOURS.object }}>▮ extracted objects</span>
        <span className="w-full text-slate-600" data-testid="tester-preview-note">Shown without the images, styles and frames it would load from its site: the preview requests nothing from it.</span>
      </figcaption>
      <iframe ref={frame} title="Preview of the tested page" sandbox="allow-same-origin" srcDoc={previewDocument(html, url)} className="h-96 w-full rounded border border-slate-300 bg-white" data-testid="tester-preview" />
    </figure>
  );
}
