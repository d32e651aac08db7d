/**
 * The language of a site section, learnt from its first pages. Detection (franc) costs about a
 * millisecond per page whatever the page's length, more than the rest of the analysis, while the
 * pages of one section of a site are nearly always in one language. So each section's pages are
 * detected until `agreeing` detections in a row agree; later pages take that language.
 *
 * A section is the host, narrowed by a first path segment that looks like a language tag
 * (`/en/`, `/fr-ca/`, `/de_DE/`), so a multilingual site's sections are learnt apart. A section
 * whose pages keep disagreeing is detected page by page.
 */

/** The host and, when it looks like a language tag, the first path segment of a URL. */
export function languageSection(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(?:\/([^/?#]*))?/i.exec(url);
  if (!m) return url;
  const segment = m[2] ?? '';
  return /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})?$/i.test(segment) ? `${m[1]}/${segment.toLowerCase()}` : m[1];
}

interface SectionLanguage {
  language: string;
  agreeing: number;
}

export interface LanguageMemoOptions {
  /** Detections in a row that must agree before a section's language is settled (default 3). */
  agreeing?: number;
  /** Sections remembered; the memo starts afresh beyond this (default 100,000). */
  maxSections?: number;
}

export class LanguageMemo {
  private readonly sections = new Map<string, SectionLanguage>();
  private readonly agreeing: number;
  private readonly maxSections: number;

  /** `detect` returns an ISO 639-3 code, or 'und' when it can't tell (which is not counted). */
  constructor(
    private readonly detect: (text: string) => string,
    options: LanguageMemoOptions = {},
  ) {
    this.agreeing = Math.max(1, options.agreeing ?? 3);
    this.maxSections = options.maxSections ?? 100_000;
  }

  /** The language of the page at `url` with main text `text`: its section's, once settled. */
  languageOf(url: string, text: string): string {
    const section = languageSection(url);
    const known = this.sections.get(section);
    if (known && known.agreeing >= this.agreeing) return known.language;
    const detected = this.detect(text);
    if (detected === 'und') return detected;
    if (known?.language === detected) known.agreeing += 1;
    else {
      if (!known && this.sections.size >= this.maxSections) this.sections.clear();
      this.sections.set(section, { language: detected, agreeing: 1 });
    }
    return detected;
  }

  /** The settled language of a URL's section, if any. */
  settled(url: string): string | undefined {
    const known = this.sections.get(languageSection(url));
    return known && known.agreeing >= this.agreeing ? known.language : undefined;
  }
}
