/**
 * Predicts a page's change rate from its URL before any history exists (SHARC): the crawl's own
 * history is cut into equal-frequency rate bins and a naive Bayes classifier over URL features
 * (depth, MIME class, length, first path segments, special characters) picks the bin.
 */

export interface UrlSample {
  url: string;
  mime?: string | null;
  depth: number;
}

/** The categorical features of a URL. */
export function urlFeatures(s: UrlSample): string[] {
  let u: URL;
  try {
    u = new URL(s.url);
  } catch {
    return ['invalid'];
  }
  const segments = u.pathname.split('/').filter(Boolean);
  const mime = (s.mime ?? '').toLowerCase();
  const mimeClass = mime.includes('html') ? 'html' : /^(image|video|audio)\//.test(mime) ? 'media' : mime ? 'other' : 'unknown';
  const features = [
    `depth:${Math.min(s.depth, 6)}`,
    `mime:${mimeClass}`,
    `length:${Math.min(Math.floor(Math.log2(Math.max(s.url.length, 1))), 9)}`,
    `segments:${Math.min(segments.length, 6)}`,
    `seg1:${segments[0] ?? ''}`,
    `seg2:${segments.slice(0, 2).join('/')}`,
    `query:${u.search ? 'yes' : 'no'}`,
    `digits:${/\d/.test(u.pathname) ? 'yes' : 'no'}`,
  ];
  for (const c of new Set(u.pathname + u.search)) if ('~_-=&%+;,'.includes(c)) features.push(`char:${c}`);
  const ext = /\.([a-z0-9]{1,5})$/i.exec(u.pathname)?.[1]?.toLowerCase();
  features.push(`ext:${ext ?? ''}`);
  return features;
}

/** One bin of rates: its bounds and the median rate it predicts. */
export interface RateBin {
  min: number;
  max: number;
  rate: number;
}

export interface RateClassifierModel {
  bins: RateBin[];
  /** Samples per bin. */
  binCounts: number[];
  /** feature → count per bin. */
  featureCounts: Record<string, number[]>;
}

/**
 * Cuts sorted rates into `binCount` bins of (nearly) equal size; each bin predicts its median.
 * Equal frequency rather than equal width because change rates are heavily skewed.
 */
export function equalFrequencyBins(rates: readonly number[], binCount: number): RateBin[] {
  const sorted = [...rates].sort((a, b) => a - b);
  const k = Math.max(1, Math.min(binCount, sorted.length));
  const bins: RateBin[] = [];
  for (let b = 0; b < k; b++) {
    const slice = sorted.slice(Math.floor((b * sorted.length) / k), Math.floor(((b + 1) * sorted.length) / k));
    if (slice.length === 0) continue;
    bins.push({ min: slice[0]!, max: slice.at(-1)!, rate: slice[Math.floor(slice.length / 2)]! });
  }
  return bins;
}

function binOf(bins: readonly RateBin[], rate: number): number {
  for (let b = 0; b < bins.length; b++) if (rate <= bins[b]!.max) return b;
  return bins.length - 1;
}

/** Trains the classifier on pages whose rates the crawl has measured. */
export function trainRateClassifier(samples: readonly (UrlSample & { rate: number })[], binCount = 4): RateClassifierModel {
  const bins = equalFrequencyBins(samples.map((s) => s.rate), binCount);
  const binCounts = bins.map(() => 0);
  const featureCounts: Record<string, number[]> = {};
  for (const s of samples) {
    const b = binOf(bins, s.rate);
    binCounts[b]!++;
    for (const f of urlFeatures(s)) (featureCounts[f] ??= bins.map(() => 0))[b]!++;
  }
  return { bins, binCounts, featureCounts };
}

export interface RatePrediction {
  bin: number;
  rate: number;
  /** Posterior probability of each bin. */
  posterior: number[];
}

/** The most probable bin for a URL (Laplace-smoothed naive Bayes) and the rate it stands for. */
export function predictRate(model: RateClassifierModel, sample: UrlSample): RatePrediction {
  const total = model.binCounts.reduce((a, b) => a + b, 0);
  const logs = model.bins.map((_, b) => {
    const n = model.binCounts[b]!;
    let lp = Math.log((n + 1) / (total + model.bins.length));
    for (const f of urlFeatures(sample)) {
      const c = model.featureCounts[f]?.[b] ?? 0;
      lp += Math.log((c + 1) / (n + 2));
    }
    return lp;
  });
  const top = Math.max(...logs);
  const weights = logs.map((l) => Math.exp(l - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  const posterior = weights.map((w) => w / sum);
  const bin = logs.indexOf(top);
  return { bin, rate: model.bins[bin]?.rate ?? 0, posterior };
}
