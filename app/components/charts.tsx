'use client';
import { useId } from 'react';
import type { LineLayout, StackLayout } from '../lib/client/chart-layout';

/**
 * Renders a layout from chart-layout.ts as SVG: axes, grid, lines or stacked areas, a legend. The
 * image is named by `title` and described by the layout's values in words (read, not shown).
 */
export function ChartFrame({
  layout,
  title,
  legend,
  xLabel,
  testId,
}: {
  layout: LineLayout | StackLayout;
  title: string;
  legend: { key: string; label: string; colour: string }[];
  xLabel: string;
  testId?: string;
}) {
  const { width, height } = layout;
  const areas = 'areas' in layout ? layout.areas : [];
  const bottom = height - 28;
  const valuesId = `${useId()}-values`;
  return (
    <figure className="space-y-1" data-testid={testId}>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-label={title} aria-describedby={valuesId}>
        {layout.yTicks.map((t) => (
          <g key={`y${t.value}`}>
            <line x1={48} x2={width - 16} y1={t.pos} y2={t.pos} stroke="#e2e8f0" />
            <text x={44} y={t.pos} dy="0.32em" textAnchor="end" fontSize={10} fill="#475569">{t.label}</text>
          </g>
        ))}
        {layout.xTicks.map((t) => (
          <text key={`x${t.value}`} x={t.pos} y={bottom + 14} textAnchor="middle" fontSize={10} fill="#475569">{t.label}</text>
        ))}
        <line x1={48} x2={width - 16} y1={bottom} y2={bottom} stroke="#94a3b8" />
        <text x={width - 16} y={height - 2} textAnchor="end" fontSize={10} fill="#475569">{xLabel}</text>
        {/* Opaque, as the legend shows them (at 0.75 they read paler than their swatches and under
            3:1 on white), each edged in the card's white: neighbours whose colours differ by less
            than 3:1 are still told apart where they meet (WCAG 1.4.11). */}
        {areas.map((a) => <path key={a.key} d={a.d} fill={a.colour} stroke="#fff" strokeWidth={1.5} strokeLinejoin="round" data-series={a.key} />)}
        {layout.paths.map((p) => (
          <g key={p.key}>
            <path d={p.d} fill="none" stroke={p.colour} strokeWidth={2} data-series={p.key} />
            {p.last && <circle cx={p.last[0]} cy={p.last[1]} r={3} fill={p.colour} />}
          </g>
        ))}
      </svg>
      <p id={valuesId} className="sr-only">{layout.description}</p>
      <figcaption className="flex flex-wrap gap-3 text-xs text-slate-700">
        <span className="font-semibold">{title}</span>
        {legend.map((l) => (
          <span key={l.key} className="inline-flex items-center gap-1">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: l.colour }} aria-hidden />
            {l.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
