import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PrismaClient } from '../store/prisma';
import type { CoherenceSummary } from './metrics';
import { buildDiscoveryTree, diffWords, rateHistogram, toGraphML, type CoherencePageRow, type DiffSegment, type HistogramBin, type TreeNode } from './coherence-view';
import type { PageStatus } from './change-classifier';

/** The cockpit's read side of a visit–revisit capture (Prisma queries live here, not in routes). */

export interface CoherenceReport {
  crawlId: number;
  run: { referenceTime: string; startedAt: string; finishedAt: string | null } | null;
  summary: CoherenceSummary | null;
  /** Pages visited, and revisited so far. */
  pages: number;
  revisited: number;
  tree: TreeNode[];
  histogram: HistogramBin[];
  certificateAvailable: boolean;
}

export const CERTIFICATE_NAME = 'coherence-certificate.json';

function rowOf(p: { url: string; parentUrl: string | null; depth: number; mime: string | null; status: string | null; changeRate: number | null }): CoherencePageRow {
  return { url: p.url, parentUrl: p.parentUrl, depth: p.depth, mime: p.mime, status: p.status as PageStatus | null, changeRate: p.changeRate };
}

async function pageRows(prisma: PrismaClient, crawlId: number): Promise<CoherencePageRow[]> {
  const pages = await prisma.coherencePage.findMany({
    where: { crawlId },
    select: { url: true, parentUrl: true, depth: true, mime: true, status: true, changeRate: true },
    orderBy: { id: 'asc' },
  });
  return pages.map(rowOf);
}

/** Summary, discovery tree and change-rate histogram of a crawl's visit–revisit capture. */
export async function coherenceReport(prisma: PrismaClient, crawlId: number, warcDir: string): Promise<CoherenceReport> {
  const [run, rows] = await Promise.all([prisma.coherenceRun.findUnique({ where: { crawlId } }), pageRows(prisma, crawlId)]);
  return {
    crawlId,
    run: run ? { referenceTime: run.referenceTime.toISOString(), startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt?.toISOString() ?? null } : null,
    summary: run?.summary ? (JSON.parse(run.summary) as CoherenceSummary) : null,
    pages: rows.length,
    revisited: rows.filter((r) => r.status !== null).length,
    tree: buildDiscoveryTree(rows),
    histogram: rateHistogram(rows.filter((r) => r.changeRate !== null).map((r) => r.changeRate!)),
    certificateAvailable: existsSync(join(warcDir, CERTIFICATE_NAME)),
  };
}

export interface CoherencePageDetail {
  url: string;
  status: string | null;
  evidence: string | null;
  similarity: number | null;
  visitedAt: string;
  revisitedAt: string | null;
  linksAdded: string[];
  linksRemoved: string[];
  visitText: string;
  revisitText: string | null;
  diff: DiffSegment[];
}

/** One page's visit and revisit side by side, with the word diff of their main texts. */
export async function coherencePageDetail(prisma: PrismaClient, crawlId: number, url: string): Promise<CoherencePageDetail | null> {
  const p = await prisma.coherencePage.findUnique({ where: { crawlId_url: { crawlId, url } } });
  if (!p) return null;
  const verdict = p.verdict ? (JSON.parse(p.verdict) as { linksAdded?: string[]; linksRemoved?: string[] }) : {};
  return {
    url: p.url, status: p.status, evidence: p.evidence, similarity: p.similarity,
    visitedAt: p.visitedAt.toISOString(), revisitedAt: p.revisitedAt?.toISOString() ?? null,
    linksAdded: verdict.linksAdded ?? [], linksRemoved: verdict.linksRemoved ?? [],
    visitText: p.visitText, revisitText: p.revisitText,
    diff: p.revisitText === null ? [] : diffWords(p.visitText, p.revisitText),
  };
}

/** The discovery tree as GraphML. */
export async function coherenceGraphml(prisma: PrismaClient, crawlId: number): Promise<string> {
  return toGraphML(await pageRows(prisma, crawlId));
}

/** The certificate written beside the WARC files, or null before the revisit pass finished. */
export function readCertificate(warcDir: string): string | null {
  const path = join(warcDir, CERTIFICATE_NAME);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** Removes a deleted crawl's coherence rows (the tables have no relation to Crawl, so no cascade). */
export async function deleteCoherenceData(prisma: PrismaClient, crawlId: number): Promise<void> {
  await prisma.coherencePage.deleteMany({ where: { crawlId } });
  await prisma.coherenceRun.deleteMany({ where: { crawlId } });
}
