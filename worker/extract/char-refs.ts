import { decodeHTML, decodeHTMLAttribute } from 'entities';

// Pages tokenised without decoding character references (htmlparser2 then skips text quickly)
// decode the few texts and values that hold one, as a decoding parser would have.

/** Text with its character references decoded. */
export const decodeTextRefs = (s: string): string => (s.includes('&') ? decodeHTML(s) : s);

/** An attribute value decoded by the attribute rules (`&copy=2` in a URL stays as written). */
export const decodeAttributeRefs = (s: string): string => (s.includes('&') ? decodeHTMLAttribute(s) : s);
