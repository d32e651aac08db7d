import { z } from 'zod';
import { parseWrittenKnowledgeBase } from '../../../worker/aah/kb-parser';
import { KB_MAX_CHARS } from '../../../worker/aah/kb-xml-reader';
import { jsonError } from './handler';

/** A knowledge base's XML in a request body: at most 5 MB, as the parser reads. */
export const knowledgeBaseXmlSchema = z.string().max(KB_MAX_CHARS, 'The knowledge base is larger than 5 MB');

/** What a new knowledge base starts as when the request gives no XML: valid, and knowing no application. */
export const EMPTY_KNOWLEDGE_BASE = `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
</knowledge-base>
`;

/**
 * The 400 of XML that is not a valid knowledge base (its errors by line and column, and as issues
 * at `xml`, as the form shows them), or null when it is one.
 */
export function invalidKnowledgeBase(xml: string): Response | null {
  const parsed = parseWrittenKnowledgeBase(xml);
  if (parsed.ok) return null;
  return jsonError(400, { error: 'invalid', errors: parsed.errors, issues: parsed.errors.map((e) => ({ path: ['xml'], message: `line ${e.line}: ${e.message}` })) });
}

/**
 * The 400 of XML longer than a knowledge base may be (knowledgeBaseXmlSchema, as Save refuses it:
 * the same issue at `xml`), its message at line 1 too, as the editor's check lists errors; null
 * when it is not too long.
 */
export function oversizedKnowledgeBase(xml: string): Response | null {
  const sized = knowledgeBaseXmlSchema.safeParse(xml);
  if (sized.success) return null;
  const message = sized.error.issues[0]!.message;
  return jsonError(400, { error: 'invalid', errors: [{ line: 1, column: 1, message }], issues: [{ path: ['xml'], message }] });
}
