/**
 * Fetch stage: one HTTP exchange per URL as the WARC writer needs it (raw heads, de-chunked body
 * with its sha1 payload digest, spooled to disk when large), with timeouts, size caps, retries,
 * a DNS cache for per-IP politeness, and capped content decoding for the extractors.
 */
export { createFetcher, dnsFailure, type Fetcher, type FetcherOptions, type FetchLimits, type FetchOutcome, type FetchRequestOptions, type FetchTiming } from './fetcher';
export { createCookieJar, setCookieValues, DEFAULT_COOKIE_BOUNDS, type CookieBounds, type CrawlCookieJar } from './cookie-jar';
export { addressClass, addressRefusal, type AddressClass, type AddressPolicy } from './address-class';
export { createAddressGuard, type AddressGuard } from './address-guard';
export { createDnsCache, resolveHost, sharedDnsCache, type DnsCache, type DnsCacheOptions, type LookupFn, type ResolveResult } from './dns-cache';
export { bodyForParsing, bodyUnlessBomb, contentCodingFault, contentCodingNote, decodeBody, decodeContentEncoding, decodeStreamCapped, parseContentCodings, type DecodedBody, type OverflowMode, type ParsedBody } from './decode-content-encoding';
export { classifyError, DecompressionBombError, DnsError, failureMessage, truncationOf, type BodyReceived, type ErrorClass } from './classify-error';
export { TimeoutError, withTimeout, startDeadline, type TimeoutKind, type Deadline } from './timeout';
export { releaseBody } from './body-sink';
export { gotNoAnswer, isSilentFailure, NO_CONNECTION_REASONS } from './no-answer';
export { retryDelayMs, parseRetryAfterMs, DEFAULT_BACKOFF, type BackoffConfig } from './retry-backoff';
export { buildRequestHead, buildResponseHead, headersRecord, withoutChunked } from './http-heads';
