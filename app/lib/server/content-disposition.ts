/**
 * The Content-Disposition of a download saved as `fileName`, whatever its script: RFC 6266's
 * `filename*` in UTF-8, escaped as RFC 8187 asks (encodeURIComponent leaves `'`, `(`, `)` and `*`,
 * which its value may not hold: Chromium refused a name with an apostrophe, `l'été.pdf`, and saved
 * the download under the URL's last segment), after a plain `filename` in ASCII for clients that
 * read no other. Pure.
 */
export function attachmentDisposition(fileName: string): string {
  const extended = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${extended}`;
}
