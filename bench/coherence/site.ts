import { normal, uniformStream } from './random';

/** One page of a generated site: its place in the discovery tree and its true change rate. */
export interface SimPage {
  id: string;
  url: string;
  parent: string | null;
  depth: number;
  section: string;
  /** True changes per day. */
  rate: number;
}

/**
 * Sections of the generated site and the median change rate of their pages (per day). Rates are
 * log-normal around the median, so within each section a few pages are much hotter than the rest
 * — the skew SHARC's simulations assume. "live" pages (tickers, scores) change every few minutes.
 */
export const SECTIONS: { name: string; share: number; median: number; sigma: number }[] = [
  { name: 'live', share: 0.05, median: 600, sigma: 0.8 },
  { name: 'news', share: 0.2, median: 30, sigma: 1.2 },
  { name: 'blog', share: 0.2, median: 2, sigma: 1 },
  { name: 'docs', share: 0.25, median: 0.2, sigma: 1 },
  { name: 'archive', share: 0.3, median: 0.01, sigma: 1 },
];

/** A site of `n` pages: a home page, one index page per section, pages in trees under them. */
export function generateSite(n: number, seed: number): SimPage[] {
  const u = uniformStream(seed);
  const origin = 'http://sim.example';
  const pages: SimPage[] = [{ id: 'p0', url: `${origin}/`, parent: null, depth: 0, section: 'home', rate: 5 }];
  const bySection = new Map<string, SimPage[]>();
  for (const s of SECTIONS) {
    const index: SimPage = { id: `p${pages.length}`, url: `${origin}/${s.name}/`, parent: 'p0', depth: 1, section: s.name, rate: s.median };
    pages.push(index);
    bySection.set(s.name, [index]);
  }
  while (pages.length < n) {
    let r = u();
    const s = SECTIONS.find((x) => (r -= x.share) < 0) ?? SECTIONS.at(-1)!;
    const members = bySection.get(s.name)!;
    // Preferential to recent pages, so the tree has depth as well as breadth.
    const parent = members[Math.floor(members.length * Math.sqrt(u()))]!;
    const id = `p${pages.length}`;
    const slug = s.name === 'archive' ? `${2010 + Math.floor(u() * 12)}/item-${pages.length}.html` : `${pages.length}`;
    const page: SimPage = {
      id, url: `${origin}/${s.name}/${slug}${u() < 0.1 ? `?ref=${Math.floor(u() * 9)}` : ''}`, parent: parent.id, depth: parent.depth + 1,
      section: s.name, rate: s.median * Math.exp(s.sigma * normal(u)),
    };
    pages.push(page);
    members.push(page);
  }
  return pages;
}

/** Breadth-first and depth-first discovery orders of the site's tree. */
export function traversalOrder(pages: readonly SimPage[], kind: 'bfs' | 'dfs'): string[] {
  const children = new Map<string, string[]>();
  for (const p of pages) if (p.parent) (children.get(p.parent) ?? children.set(p.parent, []).get(p.parent)!).push(p.id);
  const order: string[] = [];
  const pending = ['p0'];
  while (pending.length) {
    const id = kind === 'bfs' ? pending.shift()! : pending.pop()!;
    order.push(id);
    const kids = children.get(id) ?? [];
    pending.push(...(kind === 'bfs' ? kids : [...kids].reverse()));
  }
  return order;
}
