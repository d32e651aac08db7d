import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The sha256 (hex) of a file's bytes, read as a stream (a WARC file may be gigabytes); an aborted `signal` stops it (throws its reason). */
export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
