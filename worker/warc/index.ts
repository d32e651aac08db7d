/**
 * WARC stage: writes captures as WARC/1.1 (`sha1:` base32 digests, one gzip member per record,
 * rotating `.warc.gz` files, CDXJ index) and verifies written files.
 */
export { WarcWriter, type WarcWriterOptions, type CaptureLocation, type CaptureObject, type CaptureWritten } from './warc-writer';
export { MemoryDedupLookup, type DedupLookup, type DedupRef } from './dedup-lookup';
export type { RecoveryReport, RecoveredFile, KeptRecord } from './recover-open-files';
export { crawlWarcId, isWarcFileOf, warcFilename } from './recover-open-files';
export type { RevisitTarget, Outlink } from './warc-fields';
export { SOFTWARE, outlinkOf } from './warc-fields';
export { POLITE_HANDOVER_WAIT_MS } from './gzip-pool';
export { verifyWarcFile, verifyCdxj, type WarcFilePart, type WarcVerification } from './verify-warc';
export { finalizeIndex, cdxjLine, parseCdxjLine, INDEX_NAME, type CdxjEntry } from './cdxj-index';
export { sha1Digest, DIGEST_PREFIX } from './warc-digest';
export { mediaTypeOf } from './parse-heads';
