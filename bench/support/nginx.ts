// Debian's nginx on loopback for the benchmarks: installed with apt-get when missing (never by CI), run in the
// foreground (daemon off) with a generated config on a free port. The access log records, per request, the
// address the request reached, the request's start (msec − request_time) and the path.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export function ensureNginx(): string {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  if (process.env.CI) throw new Error('nginx is not installed (the benchmarks install it with apt-get, never under CI)');
  console.error('bench: installing nginx with apt-get…');
  let r = spawnSync('apt-get', ['install', '-y', 'nginx-light'], { stdio: 'inherit' });
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    r = spawnSync('apt-get', ['install', '-y', 'nginx-light'], { stdio: 'inherit' });
  }
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (existsSync(p)) return p;
  throw new Error('could not install nginx');
}

export function ensureAptTool(bin: string, pkg: string): string {
  const which = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  if (process.env.CI) throw new Error(`${bin} is not installed (the benchmarks install ${pkg} with apt-get, never under CI)`);
  console.error(`bench: installing ${pkg} with apt-get…`);
  if (spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit' }).status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', pkg], { stdio: 'inherit' });
  }
  const again = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' });
  if (again.status !== 0) throw new Error(`could not install ${pkg}`);
  return again.stdout.trim();
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface Nginx {
  port: number;
  origin: string;
  accessLog: string;
  /** Lines of the access log written so far (nginx flushes on reopen / buffer; we log unbuffered). */
  readLog(): string[];
  stop(): Promise<void>;
}

/**
 * Starts nginx serving `root`. `listen` is one address (default 127.0.0.1); `listens` several (one `listen` line
 * each, all on the same port — the politeness benchmark's 200 loopback hosts). `origin` is the first address's.
 */
export async function startNginx(opts: { root: string; workDir: string; listen?: string; listens?: string[]; port?: number; workers?: number }): Promise<Nginx> {
  const bin = ensureNginx();
  mkdirSync(opts.workDir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const addrs = opts.listens?.length ? opts.listens : [opts.listen ?? '127.0.0.1'];
  // Run as root, nginx's workers drop to `nobody`, which cannot read a 0700 mkdtemp folder: keep the caller's user.
  const userLine = process.getuid?.() === 0 ? 'user root root;\n' : '';
  const accessLog = join(opts.workDir, 'access.log');
  writeFileSync(accessLog, '');
  const conf = join(opts.workDir, 'nginx.conf');
  writeFileSync(
    conf,
    `${userLine}daemon off;
master_process on;
worker_processes ${opts.workers ?? 1};
pid ${join(opts.workDir, 'nginx.pid')};
error_log ${join(opts.workDir, 'error.log')} warn;
# Cached file handles plus connections must stay under the worker's open-file limit: with max=30000
# on a 20,000-page site nginx ran out ("Too many open files"), answered 500 and stopped accepting.
worker_rlimit_nofile 32768;
events { worker_connections 4096; multi_accept on; }
http {
  types { text/html html; text/css css; application/javascript js; image/png png; application/xml xml; text/plain txt; }
  default_type application/octet-stream;
  client_body_temp_path ${opts.workDir}/body; proxy_temp_path ${opts.workDir}/proxy; fastcgi_temp_path ${opts.workDir}/fcgi;
  uwsgi_temp_path ${opts.workDir}/uwsgi; scgi_temp_path ${opts.workDir}/scgi;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_timeout 65; keepalive_requests 1000000;
  open_file_cache max=8192 inactive=60s;
  log_format bench '$server_addr $msec $request_time $status $body_bytes_sent $request_uri';
  access_log ${accessLog} bench;
  server {
${addrs.map((a) => `    listen ${a}:${port}${addrs.length === 1 ? ' reuseport' : ''} backlog=4096;`).join('\n')}
    root ${opts.root};
    index index.html;
  }
}
`,
  );
  const child: ChildProcess = spawn(bin, ['-c', conf, '-p', opts.workDir, '-e', join(opts.workDir, 'error.log')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const host = addrs[0] !== '0.0.0.0' ? addrs[0] : '127.0.0.1';
  const origin = `http://${host}:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      // Not a file of the site: open_file_cache would keep that file's size for 60 s, and callers
      // rewrite robots.txt once the origin is known (writeSitemap), which nginx then served cut short.
      const r = await fetch(origin + '/.nginx-ready');
      await r.arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (i === 99 || child.exitCode !== null) {
      child.kill('SIGQUIT');
      throw new Error(`nginx did not start (see ${join(opts.workDir, 'error.log')})`);
    }
  }
  return {
    port,
    origin,
    accessLog,
    readLog: () => readFileSync(accessLog, 'utf8').split('\n').filter(Boolean),
    stop: () =>
      new Promise((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.kill('SIGQUIT');
      }),
  };
}
