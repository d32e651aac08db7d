import type Database from 'better-sqlite3';
import { APPROVAL_STATUSES, type AdaptedRule, type ApprovalStatus } from '../aah';
import { sqlDate } from './sqlite';

/**
 * What an AdaptedRule row's `provenance` column holds (JSON): everything about the rule but its
 * adapted expression (`expression` column) and approval (`status` column). The cockpit reads
 * this shape (app/lib/client/aah.ts `normaliseAdaptedRule`).
 */
export interface AdaptedRuleProvenance {
  /** The engine's id of the rule: the `rule` of the Web objects it extracted. */
  ruleId: string;
  applicationId: string;
  level: AdaptedRule['level'];
  original: AdaptedRule['original'];
  /** How the candidate was made: the relaxation rewrites (`mutations`). */
  generator: 'relaxation';
  mutations: string[];
  /** Page the candidate was generated on. */
  generatedOn: string;
  /** Further pages it worked on before it was adopted. */
  validatedOn: string[];
  acceptedAt: string;
}

interface Row {
  id: number;
  crawlId: number | null;
  application: string;
  originalRule: string;
  expression: string;
  provenance: string;
  status: string;
}

/**
 * Adapted rules in the AdaptedRule table, written with the SQLite driver like the captures
 * (worker/store/capture-store.ts): one row per rule the AAH adopts during a crawl, status
 * `pending` until the archivist decides in the cockpit.
 */
export class AdaptedRuleStore {
  private readonly insert;

  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    this.insert = db.prepare(
      "INSERT INTO AdaptedRule (crawlId, application, originalRule, expression, provenance, status, createdAt) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
    );
  }

  /** Stores a rule just adopted; returns its row id. */
  add(rule: AdaptedRule): number {
    const provenance: AdaptedRuleProvenance = {
      ruleId: rule.id, applicationId: rule.applicationId, level: rule.level, original: rule.original, generator: 'relaxation',
      mutations: rule.mutations, generatedOn: rule.generatedOn, validatedOn: rule.validatedOn, acceptedAt: rule.acceptedAt,
    };
    const expression = JSON.stringify({ select: rule.adapted.select, fields: rule.adapted.fields });
    return Number(this.insert.run(this.crawlId, rule.applicationId, rule.originalRule, expression, JSON.stringify(provenance), sqlDate(new Date())).lastInsertRowid);
  }

  /**
   * Every stored rule, of every crawl (an adapted rule belongs to the knowledge base's
   * application, not to one site), oldest first, as the engine restores them: approved and
   * pending ones are used, rejected ones only keep their expression from being adopted again.
   * Rows that cannot be read (hand-edited JSON) are skipped and counted.
   */
  loadAll(): { rules: AdaptedRule[]; rowIds: Map<string, number>; unreadable: number } {
    const rows = this.db.prepare('SELECT id, crawlId, application, originalRule, expression, provenance, status FROM AdaptedRule ORDER BY id').all() as Row[];
    const rules: AdaptedRule[] = [];
    const rowIds = new Map<string, number>();
    let unreadable = 0;
    for (const row of rows) {
      const rule = fromRow(row);
      if (!rule) {
        unreadable++;
        continue;
      }
      // Two crawls may each have adopted "<rule>~adapted-1"; keep ids unique within the engine.
      if (rowIds.has(rule.id)) rule.id = `${rule.id}-row${row.id}`;
      rowIds.set(rule.id, row.id);
      rules.push(rule);
    }
    return { rules, rowIds, unreadable };
  }

  /** The archivist's current decision on each row (the cockpit changes them while a crawl runs). */
  statuses(): Map<number, string> {
    const rows = this.db.prepare('SELECT id, status FROM AdaptedRule').all() as { id: number; status: string }[];
    return new Map(rows.map((r) => [r.id, r.status]));
  }
}

function fromRow(row: Row): AdaptedRule | null {
  try {
    const p = JSON.parse(row.provenance) as Partial<AdaptedRuleProvenance>;
    const e = JSON.parse(row.expression) as { select?: unknown; fields?: unknown };
    if (typeof e.select !== 'string' || !e.fields || typeof e.fields !== 'object') return null;
    if (!p.level || !(APPROVAL_STATUSES as readonly string[]).includes(row.status)) return null;
    return {
      id: p.ruleId ?? `${row.originalRule}~adapted-row${row.id}`,
      applicationId: p.applicationId ?? row.application,
      level: p.level,
      originalRule: row.originalRule,
      original: p.original ?? { select: '', fields: {} },
      adapted: { select: e.select, fields: e.fields as Record<string, string> },
      mutations: p.mutations ?? [],
      generatedOn: p.generatedOn ?? '',
      validatedOn: p.validatedOn ?? [],
      acceptedAt: p.acceptedAt ?? '',
      status: row.status as ApprovalStatus,
    };
  } catch {
    return null;
  }
}
