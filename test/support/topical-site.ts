import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const TOPICS = {
  tides: ['tide', 'tides', 'sea level', 'estuary', 'moon', 'harbour', 'ebb', 'flood tide', 'coast', 'spring tide'],
  cooking: ['recipe', 'flour', 'oven', 'butter', 'sugar', 'bake', 'dough', 'kitchen', 'pastry', 'whisk'],
} as const;

export interface TopicalSite {
  origin: string;
  topicOf(path: string): keyof typeof TOPICS | 'index';
  requests: string[];
  /** The most requests the server had open at once. */
  readonly maxOpen: number;
  close(): Promise<void>;
}

/**
 * Two interleaved topics, `perTopic` pages each. The index links the first page of each topic;
 * every page links two pages of its own topic and one of the other, with anchor text and a
 * paragraph from the target's vocabulary — the situation focused crawling exploits.
 */
export async function startTopicalSite(perTopic = 20, options: { delayMs?: number } = {}): Promise<TopicalSite> {
  const requests: string[] = [];
  let open = 0;
  let maxOpen = 0;
  const words = (topic: keyof typeof TOPICS, n: number, salt: number) =>
    Array.from({ length: n }, (_, i) => TOPICS[topic][(i * 7 + salt) % TOPICS[topic].length]).join(' ');
  const pagePath = (topic: string, i: number) => `/${topic}/${i}.html`;
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    maxOpen = Math.max(maxOpen, ++open);
    res.on('close', () => open--);
    // `delayMs`: each answer takes that long, so that requests in flight overlap.
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (path === '/robots.txt') return void res.writeHead(404).end();
    const m = /^\/(tides|cooking)\/(\d+)\.html$/.exec(path);
    let body: string;
    if (path === '/') {
      body = `<h1>Index</h1><p>Mixed pages.</p><ul><li><a href="${pagePath('cooking', 0)}">more</a></li><li><a href="${pagePath('tides', 0)}">more</a></li></ul>`;
    } else if (m && Number(m[2]) < perTopic) {
      const topic = m[1] as keyof typeof TOPICS;
      const other = topic === 'tides' ? 'cooking' : 'tides';
      const i = Number(m[2]);
      const link = (t: keyof typeof TOPICS, j: number) =>
        `<p>${words(t, 25, j)} <a href="${pagePath(t, j % perTopic)}">${words(t, 3, j + 1)}</a> ${words(t, 10, j + 2)}</p>`;
      body = `<h1>${words(topic, 3, i)}</h1><p>${words(topic, 120, i)}</p>${link(other, i * 3 + 1)}${link(topic, i + 1)}${link(topic, i + 2)}`;
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body><main>${body}</main></body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    topicOf: (path) => (path.startsWith('/tides/') ? 'tides' : path.startsWith('/cooking/') ? 'cooking' : 'index'),
    requests,
    get maxOpen() {
      return maxOpen;
    },
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
