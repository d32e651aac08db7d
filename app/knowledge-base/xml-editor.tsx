'use client';
import { useMemo, useRef, type ReactNode } from 'react';
import { ErrorMessage } from '../components/error-message';
import { useKbValidation, type KbError } from '../lib/client/aah';
import { outlineEntryKey, outlineKnowledgeBase } from './kb-outline';

/** Character offset of the start of a 1-based line. */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/**
 * The knowledge base's XML in a text area with line numbers; the server's parser checks it as
 * you type and each message names its line (a click selects that line).
 */
export function XmlEditor({ value, onChange, readOnly, children }: { value: string; onChange: (xml: string) => void; readOnly?: boolean; children?: (errors: KbError[], pending: boolean) => ReactNode }) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  // Checking is a design action: read-only viewers just read.
  const validation = useKbValidation(value, !readOnly);
  const errors = validation.data ?? [];
  const errorLines = new Set(errors.map((e) => e.line));
  const lineCount = value.split('\n').length;
  const outline = useMemo(() => outlineKnowledgeBase(value), [value]);

  const goToLine = (line: number) => {
    const el = area.current;
    if (!el) return;
    const start = lineOffset(value, line);
    const end = value.indexOf('\n', start);
    el.focus();
    el.setSelectionRange(start, end < 0 ? value.length : end);
    const lineHeight = el.scrollHeight / Math.max(1, lineCount);
    el.scrollTop = Math.max(0, (line - 5) * lineHeight);
  };

  return (
    <div className="space-y-2">
      <details className="rounded border border-slate-200 text-sm" data-testid="kb-outline">
        <summary className="cursor-pointer px-2 py-1 font-medium">Outline: {outline.filter((o) => o.kind === 'application').length} applications, {outline.filter((o) => o.kind === 'navigate' || o.kind === 'extract').length} actions</summary>
        <ul className="max-h-64 overflow-auto px-2 pb-2">
          {outline.map((o) => (
            <li key={outlineEntryKey(o)} style={{ paddingLeft: `${o.depth * 1.25}rem` }}>
              <button type="button" className={`text-left hover:underline ${o.kind === 'application' ? 'font-semibold' : o.kind === 'level' ? 'italic' : 'font-mono text-xs'}`} onClick={() => goToLine(o.line)}>
                {o.label} <span className="text-xs text-slate-500">line {o.line}</span>
              </button>
            </li>
          ))}
        </ul>
      </details>
      <label htmlFor="kb-xml" className="block text-sm font-medium">XML</label>
      {/* The ring of the focused text area goes around the gutter too: the box clips the text area's own outline. */}
      <div className="flex h-[28rem] overflow-hidden rounded border border-slate-500 bg-white font-mono text-xs leading-5 focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-sky-600">
        <div ref={gutter} aria-hidden className="select-none overflow-hidden border-r border-slate-200 bg-slate-50 px-2 py-2 text-right text-slate-500">
          {Array.from({ length: lineCount }, (_, i) => (
            <div key={i} className={errorLines.has(i + 1) ? 'bg-red-200 font-bold text-red-900' : undefined}>{i + 1}</div>
          ))}
        </div>
        <textarea
          ref={area}
          id="kb-xml"
          spellCheck={false}
          readOnly={readOnly}
          wrap="off"
          className="flex-1 resize-none overflow-auto whitespace-pre p-2 outline-none focus-visible:outline-none"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onScroll={(e) => {
            if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
          }}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby="kb-validation"
          data-testid="kb-xml"
        />
      </div>
      <div id="kb-validation" aria-live="polite" data-testid="kb-validation" data-state={validation.pending ? 'checking' : errors.length ? 'invalid' : 'valid'}>
        {validation.pending ? (
          <p className="text-sm text-slate-600">Checking…</p>
        ) : errors.length === 0 ? (
          validation.isSuccess && <p className="text-sm text-emerald-800">Valid knowledge base.</p>
        ) : (
          <ul className="space-y-1 text-sm text-red-800" data-testid="kb-errors">
            {errors.map((e, i) => (
              <li key={i}>
                <button type="button" className="text-left underline decoration-dotted hover:text-red-950" onClick={() => goToLine(e.line)} data-testid="kb-error" data-line={e.line}>
                  Line {e.line}{e.column ? `, column ${e.column}` : ''}: {e.message}
                </button>
              </li>
            ))}
          </ul>
        )}
        <ErrorMessage error={validation.error} />
      </div>
      {children?.(errors, validation.pending)}
    </div>
  );
}
