/** The knowledge base as plain data: what `parseKnowledgeBase` returns and the engine reads. */

/** Category of a web application; adaptation borrows values from applications of the same one. */
export type AppCategory = 'blog' | 'wiki' | 'forum' | 'cms' | 'news';
export const APP_CATEGORIES: readonly AppCategory[] = ['blog', 'wiki', 'forum', 'cms', 'news'];

/** Page level: intermediate pages list things (indexes, categories, topic lists); terminal pages are the things. */
export type PageLevel = 'intermediate' | 'terminal';

/** Where a rule was written in the XML, for messages and for the cockpit editor. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** One detection signal; an application is detected when its matched weights reach `threshold`. */
export type Signal =
  | { kind: 'xpath'; expression: string; weight: number; at: SourcePosition }
  | { kind: 'url'; pattern: RegExp; weight: number; at: SourcePosition }
  | { kind: 'header'; name: string; pattern: RegExp; weight: number; at: SourcePosition };

export interface Detection {
  threshold: number;
  signals: Signal[];
}

/** A navigation action: links selected by `select` are queued with `bonus`, or never followed. */
export interface NavigateAction {
  /** Rule id, unique in its application: `<app>/<level or *>/<id>` in results. */
  id: string;
  select: string;
  follow: boolean;
  /** Priority bonus in [0,1] added by the scheduler; 0 for do-not-follow rules. */
  bonus: number;
  at: SourcePosition;
}

/** One field of a Web object: an XPath relative to the object node. */
export interface FieldRule {
  name: string;
  select: string;
  /** `text`: normalised text; `html`: serialised markup of the selected nodes. */
  format: 'text' | 'html';
  required: boolean;
  at: SourcePosition;
}

/** An extraction action: every node selected by `select` is one Web object of `type`. */
export interface ExtractAction {
  id: string;
  type: string;
  select: string;
  fields: FieldRule[];
  /** Pages may legitimately have none (comments): finding nothing does not trigger adaptation. */
  optional: boolean;
  at: SourcePosition;
}

export interface LevelRule {
  level: PageLevel;
  /** Level is recognised when any signal matches (weights are ignored at this scale). */
  detect: Signal[];
  navigate: NavigateAction[];
  extract: ExtractAction[];
  at: SourcePosition;
}

export interface Application {
  id: string;
  name: string;
  category: AppCategory;
  /** Generic types (generic blog/forum/news) only win when no specific application does. */
  generic: boolean;
  detection: Detection;
  levels: LevelRule[];
  /** Actions valid on every page of the application, whatever its level. */
  navigate: NavigateAction[];
  extract: ExtractAction[];
  at: SourcePosition;
}

export interface KnowledgeBase {
  version: string;
  applications: Application[];
}

/** A problem found while reading a knowledge base, with its place in the XML (1-based). */
export interface KbError {
  line: number;
  column: number;
  message: string;
}

export type KbParseResult = { ok: true; kb: KnowledgeBase } | { ok: false; errors: KbError[] };
