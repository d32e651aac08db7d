import type Database from 'better-sqlite3';
import { coherenceTreePage, TREE_PAGE_MAX } from '../../worker/coherence/coherence-report';
import { buildDiscoveryTree, type CoherencePageRow, type TreeNode } from '../../worker/coherence/coherence-view';

/** Every row of a crawl's discovery tree, read a page at a time as the cockpit does. */
export function allTreeRows(db: Database.Database, crawlId: number, limit = TREE_PAGE_MAX): CoherencePageRow[] {
  const rows: CoherencePageRow[] = [];
  for (let after: number | null = 0; after !== null; ) {
    const page = coherenceTreePage(db, crawlId, after, limit);
    rows.push(...page.items);
    after = page.next;
  }
  return rows;
}

/** A crawl's whole discovery tree, built from all its pages' rows. */
export function wholeTree(db: Database.Database, crawlId: number): TreeNode[] {
  return buildDiscoveryTree(allTreeRows(db, crawlId));
}
