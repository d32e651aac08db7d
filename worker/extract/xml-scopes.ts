/**
 * The namespace prefixes and base URI in scope in the open elements (XML Namespaces, XML Base).
 * Each prefix keeps a stack of its bindings, innermost last, so a declaration costs the same
 * however many are in scope: a hostile document declaring thousands of prefixes costs no copies.
 */
export class XmlScopes {
  /** Per open element, outermost first: its base URI and the prefixes it declares. */
  private readonly open: { base: string; declared: string[] }[] = [];
  private readonly bindings = new Map<string, string[]>();

  constructor(private readonly documentBase: string) {}

  /** How many elements are open. */
  get depth(): number {
    return this.open.length;
  }

  /** The base URI relative references in the innermost open element resolve against. */
  get base(): string {
    return this.open.at(-1)?.base ?? this.documentBase;
  }

  /**
   * Enters an element. Its base is its own xml:base resolved against its parent's, else its
   * parent's (XML Base; RFC 4287 §2): an Atom feed or an SVG image may write its links relative
   * to a base of its own, not to the document's URL. An xml:base that does not parse is ignored.
   */
  enter(attribs: Record<string, string>): void {
    const declared: string[] = [];
    let base = this.base;
    for (const attribute in attribs) {
      if (attribute.startsWith('xmlns:')) {
        const prefix = attribute.slice(6);
        const stack = this.bindings.get(prefix);
        if (stack) stack.push(attribs[attribute]);
        else this.bindings.set(prefix, [attribs[attribute]]);
        declared.push(prefix);
      } else if (attribute === 'xml:base') {
        base = resolvedBase(attribs[attribute], base) ?? base;
      }
    }
    this.open.push({ base, declared });
  }

  /** Leaves the innermost open element, and the prefixes it declared. */
  leave(): void {
    for (const prefix of this.open.pop()?.declared ?? []) this.bindings.get(prefix)?.pop();
  }

  /** The namespace a prefix is bound to in the innermost open element, if any. */
  namespaceOf(prefix: string): string | undefined {
    return this.bindings.get(prefix)?.at(-1);
  }
}

function resolvedBase(reference: string, base: string): string | null {
  try {
    return new URL(reference, base).href;
  } catch {
    return null;
  }
}
