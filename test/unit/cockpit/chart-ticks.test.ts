/**
 * The charts' y axes tick at values their labels tell apart. Before, the pages/s chart of an empty
 * crawl read "0.0" six times (its axis went from 0 to a billionth), and one peaking at 0.2 pages/s
 * read "0.0 0.1 0.1 0.1 0.2" (d3 ticked every 0.05, shown with one decimal).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutLines, layoutStack } from '../../../app/lib/client/chart-layout';

const oneDecimal = (v: number) => v.toFixed(1);
const rateLabels = (values: number[]) =>
  layoutLines([{ key: 'pps', label: 'pages/s', colour: '#000', points: values.map((v, i) => [i * 1000, v]) }], { width: 560, height: 200, yFormat: oneDecimal, yMinStep: 0.1 }).yTicks.map((t) => t.label);

test('the pages/s axis of an empty crawl reads 0.0 to 1.0, each label once', () => {
  assert.deepEqual(rateLabels([]), ['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
  assert.deepEqual(rateLabels([0, 0, 0]), ['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
});

test('a slow crawl peaking at 0.2 pages/s ticks every 0.1, not every 0.05', () => {
  assert.deepEqual(rateLabels([0, 0.2, 0.1]), ['0.0', '0.1', '0.2', '0.3']);
});

test('whatever the peak, no two y labels of the pages/s chart read the same', () => {
  for (const peak of [0.01, 0.04, 0.07, 0.15, 0.22, 0.35, 0.5, 0.9, 1.3, 2.7, 7, 12.5, 48, 260]) {
    const labels = rateLabels([0, peak]);
    assert.ok(labels.length >= 2, `${peak}: ${labels.join(' ')}`);
    assert.equal(new Set(labels).size, labels.length, `${peak}: ${labels.join(' ')}`);
  }
});

test('the responses chart counts in whole numbers: one response ticks 0 and 1', () => {
  const s = layoutStack([{ x: 0, values: { '2xx': 1 } }], ['2xx'], {}, { width: 560, height: 200 });
  assert.deepEqual(s.yTicks.map((t) => t.label), ['0', '1']);
  const many = layoutStack([{ x: 0, values: { '2xx': 3, '4xx': 4 } }], ['2xx', '4xx'], {}, { width: 560, height: 200 });
  assert.ok(many.yTicks.every((t) => Number.isInteger(t.value)), many.yTicks.map((t) => t.label).join(' '));
});
