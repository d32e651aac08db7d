import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attachmentDisposition } from '../../../app/lib/server/content-disposition';

// Found by an exploratory session (international names): `filename*=UTF-8''l'été.pdf` kept the
// apostrophe, which RFC 8187's value may not hold, and Chromium saved the download as "d".
test('a download name in any script is escaped as RFC 8187 asks, after a plain ASCII name', () => {
  assert.equal(attachmentDisposition('logo.png'), `attachment; filename="logo.png"; filename*=UTF-8''logo.png`);
  assert.equal(attachmentDisposition("l'été (1).pdf"), `attachment; filename="l'_t_ (1).pdf"; filename*=UTF-8''l%27%C3%A9t%C3%A9%20%281%29.pdf`);
  assert.equal(attachmentDisposition('日本語.html'), `attachment; filename="___.html"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.html`);
  assert.equal(attachmentDisposition('100%"a\\b'), `attachment; filename="100__a_b"; filename*=UTF-8''100%25%22a%5Cb`);
});
