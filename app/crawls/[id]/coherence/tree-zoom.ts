import { select, zoomTransform, type ZoomBehavior, type ZoomTransform } from 'd3';

/**
 * Zooming and panning the discovery tree without a mouse (WCAG 2.1.1): what a key or a button
 * asks for, and the one place that hands it to the tree's d3 zoom behaviour, so the wheel, a drag,
 * the keys and the buttons move the same transform within the same limits.
 */

/** A step of the view: scale by a factor, pan by screen pixels, or go back to the opening view. */
export type ZoomStep = { kind: 'scale'; by: number } | { kind: 'pan'; dx: number; dy: number } | { kind: 'reset' };

/** How much one press of + or − (key or button) scales the tree. */
export const ZOOM_FACTOR = 1.5;
/** How far one Shift+arrow pans the tree, in screen pixels. */
export const PAN_STEP = 60;

/**
 * The step a key pressed in the tree asks for, or null when the key is not a zoom key: + (or =,
 * the same key unshifted) zooms in, − zooms out, 0 goes back to the opening view, Shift with an
 * arrow looks further that way (the tree moves the other). Plain arrows stay the tree's own.
 */
export function zoomStepOfKey(key: string, shiftKey: boolean): ZoomStep | null {
  if (key === '+' || key === '=') return { kind: 'scale', by: ZOOM_FACTOR };
  if (key === '-' || key === '_' || key === '−') return { kind: 'scale', by: 1 / ZOOM_FACTOR };
  if (key === '0') return { kind: 'reset' };
  if (!shiftKey) return null;
  const pan: Record<string, [number, number]> = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const [dx, dy] = pan[key] ?? [0, 0];
  return dx || dy ? { kind: 'pan', dx: dx * PAN_STEP, dy: dy * PAN_STEP } : null;
}

/**
 * Applies `step` to the tree `svg` through its zoom `behaviour` (its scale extent holds), scaling
 * about `centre` (screen pixels in the SVG: the focused node, or the middle of the view); `opening`
 * is the view the tree opened with.
 */
export function applyZoomStep(svg: SVGSVGElement, behaviour: ZoomBehavior<SVGSVGElement, unknown>, step: ZoomStep, centre: [number, number], opening: ZoomTransform): void {
  const selection = select(svg);
  if (step.kind === 'reset') selection.call(behaviour.transform, opening);
  else if (step.kind === 'scale') selection.call(behaviour.scaleBy, step.by, centre);
  else {
    const k = zoomTransform(svg).k;
    selection.call(behaviour.translateBy, step.dx / k, step.dy / k);
  }
}
