'use client';
import { Fragment, useContext, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { scaleBand, scaleLinear, select, zoom, zoomIdentity, zoomTransform, type ZoomBehavior, type ZoomTransform } from 'd3';
import { AFTER_REFERENCE_TEXT, buildDiscoveryTree, evidenceText, noCaptureText, revisitHeading, sideSegments, type DiffSegment, type HistogramBin, type TreeNode } from '../../../../worker/coherence/coherence-view';
import { foldedNodes, layoutTree, markerPath, nodeAfterKey, showMoreSiblings, SIBLING_BATCH, STATUS_COLOURS, STATUS_LABELS, UNFOLDED_MATCHES, type LaidOutMore, type LaidOutNode, type NodeStatus, type TreeLayout } from './tree-layout';
import { applyZoomStep, ZOOM_FACTOR, zoomStepOfKey, type ZoomStep } from './tree-zoom';
import { TREE_ROWS_PER_PAGE, useCoherencePage, useCoherenceReport, useCoherenceTree } from './use-coherence';
import { useCrawlEvents } from '../../../lib/client/live';
import { PageError } from '../../../components/error-message';

/** The coherence view of one crawl; brings its own query client if the layout has none. */
export function CoherenceView({ crawlId }: { crawlId: number }) {
  const existing = useContext(QueryClientContext);
  const [own] = useState(() => (existing ? null : new QueryClient()));
  if (own) return <QueryClientProvider client={own}><CoherenceScreen crawlId={crawlId} /></QueryClientProvider>;
  return <CoherenceScreen crawlId={crawlId} />;
}

function CoherenceScreen({ crawlId }: { crawlId: number }) {
  const report = useCoherenceReport(crawlId);
  // Live: a status change (the revisit pass finished) invalidates ['crawls', id, …], this report included.
  useCrawlEvents(crawlId);
  const [selected, setSelected] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  // Counts the Enters pressed in Search: each takes the keyboard focus to the first match in the tree.
  const [toMatch, setToMatch] = useState(0);
  // The archivist's folds and unfolds (URL → folded); the rest of the tree opens as far as SHOWN_NODES allows.
  const [toggled, setToggled] = useState<ReadonlyMap<string, boolean>>(new Map());
  // How many children each parent shows ('' for the roots), where the archivist asked for more than one batch.
  const [siblings, setSiblings] = useState<ReadonlyMap<string, number>>(new Map());
  const treePages = useCoherenceTree(crawlId, report.data?.version);
  const rows = useMemo(() => treePages.data?.pages.flatMap((p) => p.items), [treePages.data]);
  const tree = useMemo(() => (rows ? buildDiscoveryTree(rows) : undefined), [rows]);
  const searchHelpId = useId();
  const collapsed = useMemo(() => foldedNodes(tree ?? [], toggled), [tree, toggled]);
  const layout = useMemo(() => layoutTree(tree ?? [], collapsed, search, siblings), [tree, collapsed, search, siblings]);
  if (report.isPending) return <p className="p-6 text-gray-600">Loading the coherence report…</p>;
  if (report.isError) return <PageError error={report.error} />;
  const r = report.data;
  const toggle = (url: string) => setToggled((t) => new Map(t).set(url, !collapsed.has(url)));
  const showMore = (parent: string) => setSiblings((s) => showMoreSiblings(s, parent));
  const selectedNode = selected === null || !tree ? null : findNode(tree, selected);
  return (
    <div className="p-6 space-y-4">
      <header className="flex flex-wrap items-baseline gap-4">
        <h1 className="text-2xl font-semibold">Coherence of crawl {crawlId}</h1>
        <a className="underline" href={`/crawls/${crawlId}`}>Back to the crawl</a>
        <a className="underline" href={`/api/crawls/${crawlId}/coherence/graphml`} download data-testid="graphml-link">Download GraphML</a>
        {r.certificateAvailable && <a className="underline" href={`/api/crawls/${crawlId}/coherence/certificate`} download data-testid="certificate-link">Download certificate</a>}
      </header>
      <Summary report={r} />
      {r.pages === 0 ? (
        <p data-testid="no-capture">{noCaptureText(r.crawl)}</p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
          <section aria-label="Discovery tree" className="border rounded">
            <div className="flex gap-2 p-2 border-b">
              <label className="flex gap-2 items-center">Search
                <input className="border rounded px-2 py-1" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="part of a URL" data-testid="tree-search"
                  aria-describedby={searchHelpId} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); setToMatch((n) => n + 1); } }} />
              </label>
              <Legend />
            </div>
            <p id={searchHelpId} className="sr-only">Enter goes to the first match in the tree.</p>
            <TreeRowsRead pages={r.pages} read={rows?.length ?? 0} query={treePages} />
            {tree && <TreeChart layout={layout} pages={r.pages} toMatch={toMatch} search={search} selected={selected} onSelect={setSelected} onToggle={toggle} onMore={showMore} />}
          </section>
          <section aria-label="Change rates" className="border rounded p-2">
            <h2 className="font-semibold">Change rates (changes per day)</h2>
            <Histogram bins={r.histogram} />
          </section>
        </div>
      )}
      {selectedNode && (
        <PageDetail crawlId={crawlId} node={selectedNode} collapsed={collapsed.has(selectedNode.url)} onToggle={() => toggle(selectedNode.url)}
          pinned={layout.nodes.some((n) => n.url === selectedNode.url && n.pinned)} />
      )}
    </div>
  );
}

/**
 * How many of the capture's pages the tree holds, and the buttons that read more of them: the view
 * reads the tree's rows TREE_ROWS_PER_PAGE at a time, the first page when it opens. The tree, its
 * search and its counts are those of the pages read.
 */
function TreeRowsRead({ pages, read, query }: { pages: number; read: number; query: ReturnType<typeof useCoherenceTree> }) {
  const [all, setAll] = useState(false);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  // "Read all": one page after the other, until none is left or the archivist stops it.
  useEffect(() => {
    if (all && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    if (all && !hasNextPage) setAll(false);
  }, [all, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return (
    <div className="flex flex-wrap items-center gap-2 px-2 pt-1 text-xs text-gray-600" role="group" aria-label="Pages of the tree read">
      <span role="status" data-testid="tree-read" aria-busy={query.isFetching}>
        {query.isPending ? 'Reading the tree…' : read < pages ? `The tree of the first ${read.toLocaleString()} pages visited, of ${pages.toLocaleString()}; its search looks in these.` : `The tree of all ${pages.toLocaleString()} pages.`}
      </span>
      {query.error && <span role="alert">{query.error.message}</span>}
      {hasNextPage && (
        <>
          <button type="button" className="btn px-2 py-0.5" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()} data-testid="tree-read-more">
            Read {Math.max(1, Math.min(TREE_ROWS_PER_PAGE, pages - read)).toLocaleString()} more pages
          </button>
          <button type="button" className="btn px-2 py-0.5" onClick={() => setAll(!all)} data-testid="tree-read-all">
            {all ? 'Stop reading' : `Read all ${pages.toLocaleString()}`}
          </button>
        </>
      )}
    </div>
  );
}

/** The page of the tree with this URL, if it has one. */
function findNode(tree: readonly TreeNode[], url: string): TreeNode | null {
  const stack = [...tree];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.url === url) return n;
    stack.push(...n.children);
  }
  return null;
}

function Summary({ report }: { report: NonNullable<ReturnType<typeof useCoherenceReport>['data']> }) {
  // A run over no page has no coherence, not 100 % (its summary says null, with the reason in
  // `unmeasured`; the API reads one stored before, which said 1, as null too).
  const s = report.summary;
  const counted = s && s.pages > 0 ? s : null;
  return (
    <section aria-label="Summary" className="flex flex-wrap gap-6" data-testid="coherence-summary">
      <Figure label="coherence" value={s && s.coherence !== null ? `${(s.coherence * 100).toFixed(1)} %` : null} reason={s?.unmeasured?.coherence} testId="coherence-figure" />
      <Figure label="blur (expected changes per page)" value={s && s.blur !== null ? s.blur.toFixed(3) : null} reason={s?.unmeasured?.blur} testId="blur-figure" />
      <Figure label="pages revisited" value={`${report.revisited} / ${report.pages - report.afterReference}`} />
      {report.afterReference > 0 && <Figure label={`${STATUS_LABELS['after-reference']} (outside the certificate)`} value={String(report.afterReference)} colour={STATUS_COLOURS['after-reference']} testId="after-reference-figure" />}
      <Figure label="reference time" value={report.run ? new Date(report.run.referenceTime).toLocaleString() : null} />
      {counted && (Object.keys(counted.byStatus) as (keyof typeof counted.byStatus)[]).map((k) => <Figure key={k} label={STATUS_LABELS[k]} value={String(counted.byStatus[k])} colour={STATUS_COLOURS[k]} />)}
    </section>
  );
}

/**
 * One figure of the summary; `value` null shows "—" (read "not measured" by screen readers) and,
 * when the API gives one, the reason beside it, in words a screen reader reads with the figure.
 */
function Figure({ label, value, colour, reason, testId }: { label: string; value: string | null; colour?: string; reason?: string; testId?: string }) {
  const labelId = useId();
  const reasonId = useId();
  const why = value === null && reason ? reason : null;
  return (
    <div data-testid={testId} role="group" aria-labelledby={labelId} aria-describedby={why ? reasonId : undefined}>
      <div id={labelId} className="text-sm text-gray-600">{colour && <span className="inline-block w-3 h-3 mr-1 rounded-full" style={{ background: colour }} />}{label}</div>
      <div className="text-xl font-semibold">{value ?? <><span aria-hidden="true">—</span><span className="sr-only">not measured</span></>}</div>
      {why && <div id={reasonId} className="text-sm text-gray-700 max-w-xs" data-testid="unmeasured-reason">Not measured: {why}.</div>}
    </div>
  );
}

function Legend() {
  return (
    <ul className="flex gap-3 text-sm items-center" aria-label="Legend">
      {(Object.keys(STATUS_COLOURS) as NodeStatus[]).map((s) => (
        <li key={s}><span className="inline-block w-3 h-3 mr-1 rounded-full" style={{ background: STATUS_COLOURS[s] }} />{STATUS_LABELS[s]}</li>
      ))}
      <li>● HTML ■ media ◆ other</li>
    </ul>
  );
}

function TreeChart(props: {
  layout: TreeLayout; pages: number; toMatch: number; search: string; selected: string | null;
  onSelect(url: string): void; onToggle(url: string): void; onMore(parent: string): void;
}) {
  const { layout } = props;
  const height = Math.min(Math.max(layout.height + 40, 300), 700);
  const svgRef = useRef<SVGSVGElement>(null);
  const nodeRefs = useRef(new Map<string, SVGGElement>());
  // The row to focus once the layout has it: the first of the batch a "+K more" row showed.
  const focusNext = useRef<string | null>(null);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  // The view the tree opened with, where Reset and 0 go back to.
  const opening = useRef<ZoomTransform>(zoomIdentity);
  // One tab stop for the whole tree (the node last focused, else the selected one, else the
  // first); the arrow keys move among the nodes, as in a file tree.
  const [focused, setFocused] = useState<string | null>(null);
  const [hasFocus, setHasFocus] = useState(false);
  const shown = (url: string | null) => url !== null && layout.rows.some((n) => n.url === url);
  const tabStop = shown(focused) ? focused : shown(props.selected) ? props.selected : layout.rows[0]?.url ?? null;
  const showMore = (m: LaidOutMore) => {
    focusNext.current = m.next;
    props.onMore(m.parent);
  };
  // A zoom step from a button (about the middle of the view) or a key (about the focused node).
  const zoomBy = (step: ZoomStep, about?: { x: number; y: number }) => {
    const svg = svgRef.current;
    if (!svg || !zoomRef.current) return;
    const t = zoomTransform(svg);
    // The zoom's points, without the margin the group adds (20, 10).
    const centre: [number, number] = about ? [t.x + t.k * about.x, t.y + t.k * about.y] : [svg.clientWidth / 2 - 20, height / 2 - 10];
    applyZoomStep(svg, zoomRef.current, step, centre, opening.current);
  };
  const onKey = (n: LaidOutNode | LaidOutMore, event: KeyboardEvent) => {
    const enter = event.key === 'Enter' || event.key === ' ';
    const zoomStep = event.ctrlKey || event.metaKey || event.altKey ? null : zoomStepOfKey(event.key, event.shiftKey);
    if (zoomStep) zoomBy(zoomStep, n);
    else if (n.kind === 'more' && enter) showMore(n);
    else if (n.kind === 'page' && enter) props.onSelect(n.url);
    else if (n.kind === 'page' && ((event.key === 'ArrowRight' && n.collapsed) || (event.key === 'ArrowLeft' && n.childCount > 0 && !n.collapsed && !n.pinned))) props.onToggle(n.url);
    else {
      const next = nodeAfterKey(layout.rows, n.url, event.key);
      if (!next) return;
      nodeRefs.current.get(next)?.focus({ preventScroll: true });
    }
    event.preventDefault();
  };
  const refOf = (url: string) => (el: SVGGElement | null) => {
    if (el) nodeRefs.current.set(url, el);
    else nodeRefs.current.delete(url);
  };
  // Enter in Search: the first match takes the focus (and so is panned into view, see reveal).
  useEffect(() => {
    const first = props.toMatch ? layout.nodes.find((n) => n.matches) : undefined;
    if (first) nodeRefs.current.get(first.url)?.focus({ preventScroll: true });
  }, [props.toMatch]);
  useEffect(() => {
    const next = focusNext.current && nodeRefs.current.get(focusNext.current);
    if (!next) return;
    focusNext.current = null;
    next.focus({ preventScroll: true });
  }, [layout]);
  // The row the keyboard focuses is panned into the tree's box (the box clips the rows outside
  // it, and the browser cannot scroll them into view), then the page scrolls the box into view.
  const reveal = (n: { x: number; y: number }, el: Element) => {
    const svg = svgRef.current;
    const behaviour = zoomRef.current;
    if (!svg || !behaviour) return;
    const t = zoomTransform(svg);
    const margin = 20;
    const [x, y] = [t.x + 20 + t.k * n.x, t.y + 10 + t.k * n.y];
    const width = svg.clientWidth;
    const dx = x < margin ? margin - x : x > width - margin ? width / 2 - x : 0;
    const dy = y < margin ? margin - y : y > height - margin ? height - margin - y : 0;
    if (dx || dy) select(svg).call(behaviour.translateBy, dx / t.k, dy / t.k);
    requestAnimationFrame(() => el.scrollIntoView({ block: 'nearest', inline: 'nearest' }));
  };
  const focusProps = (n: LaidOutNode | LaidOutMore) => ({
    ref: refOf(n.url), tabIndex: n.url === tabStop ? 0 : -1, onKeyDown: (e: KeyboardEvent) => onKey(n, e),
    onFocus: (e: { currentTarget: Element }) => { setFocused(n.url); setHasFocus(true); reveal(n, e.currentTarget); }, onBlur: () => setHasFocus(false),
    'aria-level': n.level, 'aria-posinset': n.posInSet, 'aria-setsize': n.setSize,
  });
  useEffect(() => {
    if (!svgRef.current) return;
    const svg = select(svgRef.current);
    const behaviour = zoom<SVGSVGElement, unknown>().scaleExtent([0.1, 8]).on('zoom', (e: { transform: ZoomTransform }) => setTransform(e.transform));
    zoomRef.current = behaviour;
    svg.call(behaviour).on('dblclick.zoom', null);
    // The tree opens with its first root in view: a parent sits midway down its children, so
    // 300 shown nodes put it some 3,000 px down. Once, on the layout the view opened with.
    const rootY = layout.nodes[0]?.y ?? 0;
    if (rootY + 10 > height - 20) {
      opening.current = zoomIdentity.translate(0, height / 2 - rootY - 10);
      svg.call(behaviour.transform, opening.current);
    }
    return () => { svg.on('.zoom', null); };
  }, []);
  return (
    <>
      <p className="px-2 pt-1 text-xs text-gray-600" data-testid="tree-shown">
        {layout.nodes.length.toLocaleString()} of {props.pages.toLocaleString()} pages shown; a folded page shows (+its children): double-click it or press → to unfold it (then → goes to its first child, ← to the parent); a “+K more” row shows {SIBLING_BATCH} more siblings: click it or press Enter.
        {props.search.trim() && ` ${layout.matchCount.toLocaleString()} ${layout.matchCount === 1 ? 'page matches' : 'pages match'}${layout.matchCount > UNFOLDED_MATCHES ? `; the way to the first ${UNFOLDED_MATCHES} is unfolded` : ''}${layout.matchCount ? '; Enter in Search goes to the first' : ''}.`}
        {' '}The wheel or the buttons zoom, a drag pans; in the tree, + and − zoom, Shift with an arrow pans, 0 resets.
      </p>
      <div className="flex items-center gap-2 px-2 pt-1" role="group" aria-label="Zoom the tree">
        <button type="button" className="btn px-2 py-0.5" onClick={() => zoomBy({ kind: 'scale', by: ZOOM_FACTOR })}>Zoom in</button>
        <button type="button" className="btn px-2 py-0.5" onClick={() => zoomBy({ kind: 'scale', by: 1 / ZOOM_FACTOR })}>Zoom out</button>
        <button type="button" className="btn px-2 py-0.5" onClick={() => zoomBy({ kind: 'reset' })}>Reset zoom</button>
        <span role="status" className="text-xs text-gray-600" data-testid="tree-zoom">Zoom {Math.round(transform.k * 100)} %</span>
      </div>
      <svg ref={svgRef} width="100%" height={height} role="tree" aria-label="Discovery tree coloured by coherence status" className="bg-white cursor-grab">
        <g transform={`translate(${transform.x + 20},${transform.y + 10}) scale(${transform.k})`}>
          {layout.links.map((l, i) => (
            <path key={i} fill="none" stroke="#cbd5e1" d={`M${l.source.x},${l.source.y}C${(l.source.x + l.target.x) / 2},${l.source.y} ${(l.source.x + l.target.x) / 2},${l.target.y} ${l.target.x},${l.target.y}`} />
          ))}
          {layout.nodes.map((n) => (
            <g key={n.url} transform={`translate(${n.x},${n.y})`} className="cursor-pointer outline-none"
              data-testid="tree-node" data-url={n.url} data-status={n.status} data-collapsed={n.collapsed ? 'true' : 'false'}
              role="treeitem" aria-label={`${n.url}: ${STATUS_LABELS[n.status]}${n.matches ? ', matches the search' : ''}`} {...focusProps(n)}
              aria-selected={n.url === props.selected} aria-expanded={n.childCount ? !n.collapsed : undefined}
              onClick={() => props.onSelect(n.url)} onDoubleClick={() => props.onToggle(n.url)}>
              {hasFocus && n.url === focused && <circle r={n.r + 5} fill="none" stroke="#2563eb" strokeWidth={2} strokeDasharray="3 2" data-testid="focus-ring" />}
              <path d={markerPath(n.mimeClass, n.r)} fill={STATUS_COLOURS[n.status]} stroke={n.url === props.selected ? '#2563eb' : n.matches ? '#f97316' : '#fff'} strokeWidth={n.url === props.selected || n.matches ? 3 : 1} />
              <title>{`${n.url}\n${STATUS_LABELS[n.status]} · ${n.coherentBelow} coherent below${n.childCount ? ` · ${n.childCount} children${n.collapsed ? ' (collapsed)' : ''}` : ''}`}</title>
              <text x={n.r + 4} dy="0.32em" fontSize={11} fill="#334155">{shortLabel(n.url)}{n.collapsed ? ` (+${n.childCount})` : ''}</text>
            </g>
          ))}
          {layout.more.map((m) => (
            <g key={m.url} transform={`translate(${m.x},${m.y})`} className="cursor-pointer outline-none" data-testid="tree-more" data-parent={m.parent}
              role="treeitem" aria-label={`${m.hidden.toLocaleString()} more pages here: show ${Math.min(SIBLING_BATCH, m.hidden)}`} {...focusProps(m)} onClick={() => showMore(m)}>
              {hasFocus && m.url === focused && <circle r={9} fill="none" stroke="#2563eb" strokeWidth={2} strokeDasharray="3 2" data-testid="focus-ring" />}
              <circle r={4} fill="#fff" stroke="#64748b" strokeDasharray="2 1" />
              <text x={8} dy="0.32em" fontSize={11} fill="#2563eb" textDecoration="underline">+{m.hidden.toLocaleString()} more (show {Math.min(SIBLING_BATCH, m.hidden)})</text>
            </g>
          ))}
        </g>
      </svg>
    </>
  );
}

function shortLabel(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname + u.search;
    return path === '/' ? u.host : path.length > 28 ? `…${path.slice(-27)}` : path;
  } catch {
    return url;
  }
}

/** A bin of the change-rate histogram in words. */
function binText(b: HistogramBin): string {
  return `${b.from === 0 ? 'no change seen' : `${b.from}–${b.to} changes per day`}: ${b.count} page${b.count === 1 ? '' : 's'}`;
}

function Histogram({ bins }: { bins: HistogramBin[] }) {
  const width = 320;
  const height = 180;
  const labels = bins.map((b) => (b.from === 0 ? '0' : b.from >= 1 ? String(b.from) : b.from.toString()));
  const x = scaleBand<string>().domain(labels).range([30, width - 5]).padding(0.15);
  const y = scaleLinear().domain([0, Math.max(1, ...bins.map((b) => b.count))]).nice().range([height - 25, 10]);
  const valuesId = `${useId()}-values`;
  return (
    <>
      <svg width={width} height={height} role="img" aria-label="Histogram of change rates" aria-describedby={valuesId} data-testid="rate-histogram">
        {bins.map((b, i) => (
          <g key={i}>
            {/* sky-600: 3.9:1 on the page's slate-50 (WCAG 1.4.11); sky-500 was 2.7:1. */}
            <rect x={x(labels[i]!)} y={y(b.count)} width={x.bandwidth()} height={y(0) - y(b.count)} fill="#0284c7"><title>{binText(b)}</title></rect>
            <text x={(x(labels[i]!) ?? 0) + x.bandwidth() / 2} y={height - 10} fontSize={9} textAnchor="middle">{labels[i]}</text>
          </g>
        ))}
        {y.ticks(4).map((t) => <text key={t} x={25} y={y(t)} fontSize={9} textAnchor="end" dy="0.32em">{t}</text>)}
      </svg>
      <p id={valuesId} className="sr-only">{bins.map(binText).join('; ')}.</p>
    </>
  );
}

/** `pinned`: the search holds the page open (a match lies below), so it cannot be collapsed while the search stands. */
function PageDetail({ crawlId, node, collapsed, pinned, onToggle }: { crawlId: number; node: TreeNode; collapsed: boolean; pinned: boolean; onToggle(): void }) {
  const page = useCoherencePage(crawlId, node);
  const { url } = node;
  const hasChildren = node.children.length > 0;
  return (
    <section aria-label="Visit and revisit" className="border rounded p-3 space-y-2" data-testid="page-detail">
      <div className="flex flex-wrap gap-4 items-baseline">
        <h2 className="font-semibold break-all">{url}</h2>
        {hasChildren && (pinned
          ? <span className="text-sm text-gray-600" data-testid="subtree-pinned">Its subtree stays open while the search shows a match in it.</span>
          : <button type="button" className="underline" onClick={onToggle} data-testid="toggle-subtree">{collapsed ? 'Expand subtree' : 'Collapse subtree'}</button>)}
      </div>
      {page.isPending && <p>Loading…</p>}
      {page.isError && <p role="alert">{page.error.message}</p>}
      {page.data && (
        <>
          <p data-testid="page-status">
            Status: <strong>{page.data.status ? STATUS_LABELS[page.data.status as NodeStatus] : page.data.afterReference ? AFTER_REFERENCE_TEXT : STATUS_LABELS.pending}</strong>
            {page.data.evidence && <> · decided by {evidenceText(page.data.evidence)}</>}
            {page.data.similarity !== null && <> · text similarity {(page.data.similarity * 100).toFixed(0)} %</>}
          </p>
          {(page.data.linksAdded.length > 0 || page.data.linksRemoved.length > 0) && (
            <p>Links added: {page.data.linksAdded.join(', ') || 'none'} · removed: {page.data.linksRemoved.join(', ') || 'none'}</p>
          )}
          <div className="grid md:grid-cols-2 gap-3">
            <TextColumn title={`Visit · ${new Date(page.data.visitedAt).toLocaleString()}`} segments={page.data.revisitText === null ? [{ kind: 'same', text: page.data.visitText }] : page.data.diff} side="visit" />
            <TextColumn title={revisitHeading({ revisitedAt: page.data.revisitedAt, evidence: page.data.evidence, hasText: page.data.revisitText !== null, afterReference: page.data.afterReference }, (iso) => new Date(iso).toLocaleString())} segments={page.data.revisitText === null ? [] : page.data.diff} side="revisit" />
          </div>
        </>
      )}
    </section>
  );
}

function TextColumn({ title, segments, side }: { title: string; segments: DiffSegment[]; side: 'visit' | 'revisit' }) {
  const headingId = useId();
  // A region named by its heading ("Visit · …", "Revisit · …"), focusable so its text scrolls from the keyboard.
  return (
    <div data-testid={`${side}-text`}>
      <h3 id={headingId} className="font-medium">{title}</h3>
      <div role="region" aria-labelledby={headingId} tabIndex={0} className="text-sm whitespace-pre-wrap border rounded p-2 max-h-96 overflow-auto">
        {sideSegments(segments, side).map((s, i) =>
          <Fragment key={i}>{s.gap}{s.kind === 'same' ? <span>{s.text}</span> : <mark className={s.kind === 'added' ? 'bg-green-200' : 'bg-red-200 line-through'}>{s.text}</mark>}</Fragment>)}
      </div>
    </div>
  );
}
