import { canonicalize, type CanonicalizeOptions } from '../url';
import { formUrlEncoded } from '../url/query-encoding';
import { decodeTextRefs } from './char-refs';
import type { ExtractedLink } from './types';

/** Entries a form contributes at most: a page of thousands of checkboxes makes no useful URL. */
const MAX_ENTRIES = 200;

/** Input types that submit nothing without being the submitter (no button is pressed here). */
const NOT_SUBMITTED = new Set(['submit', 'image', 'reset', 'button']);

const collapse = (s: string) => s.replace(/[\t\n\f\r ]+/g, ' ').trim();
/** The entry list's line breaks are CRLF (HTML standard, "converting an entry list to a list of name-value pairs"). */
const crlf = (s: string) => (/[\r\n]/.test(s) ? s.replace(/\r\n|\r|\n/g, '\r\n') : s);

/**
 * A GET form being read: the URL a browser submits when the form is sent as the page gives it,
 * its action's query replaced by the form data set of the controls' default values (the HTML
 * standard's "constructing the entry list", kept simple): named, enabled inputs with their value
 * (checkboxes and radio buttons when checked, "on" without a value; a file input empty; no
 * button, as none is pressed), each select's selected options (a single select's first enabled
 * option when none is), each textarea's text. Controls outside the form element (`form="id"`) and
 * the `_charset_` and `dirname` details are left out.
 */
export class GetForm {
  private readonly entries: [string, string][] = [];
  private select: { name: string; multiple: boolean; chosen: string[]; first: string | null } | null = null;
  private option: { value: string | undefined; selected: boolean; disabled: boolean; text: string } | null = null;
  private textarea: { name: string; text: string } | null = null;

  /** `link`'s URL is the form's action (canonical); finish() gives it the query. */
  constructor(readonly link: ExtractedLink, private readonly encoding: string | undefined) {}

  onopentag(name: string, attribs: Record<string, string>): void {
    if (name === 'input') this.input(attribs);
    else if (name === 'select') {
      this.closeSelect();
      if (attribs.name && !('disabled' in attribs)) this.select = { name: attribs.name, multiple: 'multiple' in attribs, chosen: [], first: null };
    } else if (name === 'option') {
      this.closeOption();
      if (this.select) this.option = { value: attribs.value, selected: 'selected' in attribs, disabled: 'disabled' in attribs, text: '' };
    } else if (name === 'textarea' && attribs.name && !('disabled' in attribs)) this.textarea = { name: attribs.name, text: '' };
  }

  ontext(data: string): void {
    if (this.option) this.option.text += data;
    else if (this.textarea) this.textarea.text += data;
  }

  onclosetag(name: string): void {
    if (name === 'option') this.closeOption();
    else if (name === 'select') this.closeSelect();
    else if (name === 'textarea' && this.textarea) {
      // The parser drops a newline right after <textarea>.
      this.add(this.textarea.name, decodeTextRefs(this.textarea.text).replace(/^\r?\n/, ''));
      this.textarea = null;
    }
  }

  /** Sets the link's URL to the one submitted, with the crawl's query handling (`opts`). */
  finish(opts: CanonicalizeOptions): void {
    this.closeSelect();
    const action = this.link.url.split('?', 1)[0];
    this.link.url = canonicalize(`${action}?${formUrlEncoded(this.entries, this.encoding)}`, undefined, { queryHandling: opts.queryHandling }) ?? action;
  }

  private add(name: string, value: string): void {
    if (this.entries.length < MAX_ENTRIES) this.entries.push([crlf(name), crlf(value)]);
  }

  private input(attribs: Record<string, string>): void {
    const type = (attribs.type ?? 'text').trim().toLowerCase();
    if (!attribs.name || 'disabled' in attribs || NOT_SUBMITTED.has(type)) return;
    if (type === 'checkbox' || type === 'radio') {
      if ('checked' in attribs) this.add(attribs.name, attribs.value ?? 'on');
    } else this.add(attribs.name, type === 'file' ? '' : (attribs.value ?? ''));
  }

  private closeOption(): void {
    const option = this.option;
    if (!option || !this.select) return;
    this.option = null;
    const value = option.value ?? collapse(decodeTextRefs(option.text));
    if (option.selected) this.select.chosen.push(value);
    if (!option.disabled) this.select.first ??= value;
  }

  private closeSelect(): void {
    this.closeOption();
    const select = this.select;
    if (!select) return;
    this.select = null;
    // Of a single select's selected options, the last one stays selected.
    const values = select.multiple ? select.chosen : select.chosen.length ? [select.chosen[select.chosen.length - 1]!] : select.first === null ? [] : [select.first];
    for (const value of values) this.add(select.name, value);
  }
}
