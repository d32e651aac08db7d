import type { ResponseInput } from '../../worker/extract';

/** A 200 response of http://example.org/page with an empty body, changed by `over`. */
export const responseInput = (over: Partial<ResponseInput>): ResponseInput => ({
  url: 'http://example.org/page',
  status: 200,
  headers: {},
  body: Buffer.alloc(0),
  maxDecodedBytes: 1_000_000,
  ...over,
});
