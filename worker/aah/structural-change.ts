/**
 * Structural change on a recrawl: the previous capture's Web objects against those the same
 * actions extract now. Losing every object of a type, or a field every object used to have,
 * means the template changed (the rules need adapting); different values mean the content did.
 */
import type { WebObject } from './actions';

/** Comparison of one object type. */
export interface TypeComparison {
  type: string;
  previous: number;
  current: number;
  /** Fields present in at least half of the previous objects and in none of the current ones. */
  missingFields: string[];
  added: number;
  removed: number;
  changed: number;
}

export interface StructuralComparison {
  verdict: 'unchanged' | 'content-changed' | 'structure-changed';
  types: TypeComparison[];
}

type Comparable = Pick<WebObject, 'type' | 'fields'>;

// Objects are matched by title when they have one, else by their first field's value.
function identity(o: Comparable): string {
  return o.fields.title ?? o.fields[Object.keys(o.fields).sort()[0]] ?? '';
}

function canonical(o: Comparable): string {
  return JSON.stringify(Object.keys(o.fields).sort().map((k) => [k, o.fields[k]]));
}

/** Compares the Web objects of one page (or one host) between two captures. */
export function compareWithPrevious(previousObjects: readonly Comparable[], newObjects: readonly Comparable[]): StructuralComparison {
  const types = [...new Set([...previousObjects, ...newObjects].map((o) => o.type))].sort();
  const out: TypeComparison[] = [];
  let structural = false;
  let content = false;
  for (const type of types) {
    const prev = previousObjects.filter((o) => o.type === type);
    const cur = newObjects.filter((o) => o.type === type);
    const fieldNames = new Set(prev.flatMap((o) => Object.keys(o.fields)));
    const missingFields = [...fieldNames]
      .filter((f) => prev.filter((o) => f in o.fields).length * 2 >= prev.length)
      .filter((f) => cur.length > 0 && cur.every((o) => !(f in o.fields)))
      .sort();
    const prevBy = new Map<string, string[]>();
    for (const o of prev) prevBy.set(identity(o), [...(prevBy.get(identity(o)) ?? []), canonical(o)]);
    let added = 0;
    let changed = 0;
    for (const o of cur) {
      const candidates = prevBy.get(identity(o));
      if (!candidates?.length) {
        added++;
        continue;
      }
      const same = candidates.indexOf(canonical(o));
      candidates.splice(same >= 0 ? same : 0, 1);
      if (same < 0) changed++;
    }
    const removed = [...prevBy.values()].reduce((n, l) => n + l.length, 0);
    if ((prev.length > 0 && cur.length === 0) || missingFields.length) structural = true;
    if (added || removed || changed) content = true;
    out.push({ type, previous: prev.length, current: cur.length, missingFields, added, removed, changed });
  }
  return { verdict: structural ? 'structure-changed' : content ? 'content-changed' : 'unchanged', types: out };
}
