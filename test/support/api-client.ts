/** A small client for the cockpit's HTTP API, as a browser would use it: cookie + CSRF header. */
export class ApiClient {
  cookie = '';
  csrfToken = '';

  constructor(readonly baseUrl: string) {}

  /** A client signed in as `username`; throws with the server's answer if the sign-in is refused. */
  static async signedIn(baseUrl: string, username: string, password: string): Promise<ApiClient> {
    const client = new ApiClient(baseUrl);
    const res = await client.login(username, password);
    if (res.status !== 200) throw new Error(`sign-in as ${username} → ${res.status}: ${await res.text()}`);
    return client;
  }

  async login(username: string, password: string): Promise<Response> {
    const res = await fetch(`${this.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: this.baseUrl },
      body: JSON.stringify({ username, password }),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0]!;
    if (res.ok) this.csrfToken = ((await res.clone().json()) as { csrfToken: string }).csrfToken;
    return res;
  }

  request(method: string, path: string, body?: unknown, opts: { csrf?: boolean; origin?: string; accept?: string; range?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers, origin: opts.origin ?? this.baseUrl };
    if (opts.accept) headers.accept = opts.accept;
    if (opts.range) headers.range = opts.range;
    if (this.cookie) headers.cookie = this.cookie;
    if (opts.csrf !== false && this.csrfToken && method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** Polls a crawl until its status is one of `wanted` or `timeoutMs` passed; returns the last status seen. */
  async waitForCrawlStatus(crawlId: number, wanted: string[], timeoutMs = 60_000): Promise<string> {
    let status = '';
    for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      status = (await this.json<{ status: string }>('GET', `/api/crawls/${crawlId}`)).status;
      if (wanted.includes(status)) return status;
    }
    return status;
  }
}
