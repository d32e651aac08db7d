/**
 * The bundled demo web site: a few dozen pages about a made-up harbour town, with text, links,
 * images, a stylesheet, a robots.txt and a sitemap, so a first crawl works without internet.
 * Pure: returns the site as a map from path to response; demo-server.ts serves it.
 */

export interface DemoResource {
  contentType: string;
  body: string | Buffer;
  status?: number;
}

const SECTIONS = {
  harbour: ['Fishing fleet', 'Ferry timetable', 'Harbour master', 'Boat repairs', 'Moorings'],
  tides: ['Spring tides', 'Neap tides', 'Tide tables', 'Storm surges', 'Measuring sea level'],
  lighthouse: ['History of the light', 'Keepers', 'Fresnel lens', 'Visiting hours', 'Restoration'],
  wildlife: ['Seabirds', 'Seals', 'Rock pools', 'Salt marsh', 'Dunes'],
  history: ['Founding', 'Shipwrecks', 'The old mill', 'War years', 'Town archive'],
} as const;

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function paragraph(topic: string, title: string, n: number): string {
  const sentences = [
    `${title} is part of everyday life in Tidemark Bay, where the ${topic} shapes the rhythm of the town.`,
    `Visitors often ask the archive volunteers about ${title.toLowerCase()} and how it changed over the last century.`,
    `Records kept in the town library describe ${title.toLowerCase()} in letters, photographs and newspaper cuttings.`,
    `Local schools study the ${topic} every spring, walking the shore at low water with notebooks and cameras.`,
  ];
  return sentences.slice(0, 2 + (n % 3)).join(' ');
}

function page(title: string, body: string, crumbs: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} — Tidemark Bay</title>
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/static/icon.svg">
<link rel="alternate" type="application/rss+xml" href="/news/feed.xml" title="News"></head>
<body><header><nav><a href="/">Home</a> ${Object.keys(SECTIONS)
    .map((s) => `<a href="/${s}/">${s[0]!.toUpperCase()}${s.slice(1)}</a>`)
    .join(' ')} <a href="/news/">News</a></nav></header>
<main><p class="crumbs">${crumbs}</p><h1>${title}</h1>${body}</main>
<footer><p>Tidemark Bay town web — a demo site bundled with Tidemark. <a href="/about.html">About</a></p></footer>
</body></html>`;
}

const SVG_IMAGE = (label: string, hue: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" fill="hsl(${hue},60%,70%)"/><text x="16" y="68" font-family="sans-serif" font-size="20">${label}</text></svg>`;

/** Builds the whole demo site. `origin` is used in the sitemap and robots.txt. */
export function buildDemoSite(origin: string): Map<string, DemoResource> {
  const site = new Map<string, DemoResource>();
  const html = (body: string): DemoResource => ({ contentType: 'text/html; charset=utf-8', body });
  const sectionNames = Object.keys(SECTIONS) as (keyof typeof SECTIONS)[];

  site.set('/', html(page('Welcome', `<p>Tidemark Bay is a small harbour town on a tidal estuary. Explore its ${sectionNames
    .map((s) => `<a href="/${s}/">${s}</a>`)
    .join(', ')}.</p><img src="/static/images/bay.svg" alt="The bay"><p>Latest: <a href="/news/">town news</a>.</p>`, 'Home')));
  site.set('/about.html', html(page('About this site', '<p>This site exists so that a first crawl with Tidemark works offline.</p><p><a href="/private/staff.html">Staff area</a> (excluded by robots.txt).</p>', '<a href="/">Home</a>')));
  site.set('/private/staff.html', html(page('Staff only', '<p>Robots should not fetch this page.</p>', 'Private')));

  sectionNames.forEach((section, si) => {
    const titles = SECTIONS[section];
    const list = titles.map((t) => `<li><a href="/${section}/${slug(t)}.html">${t}</a></li>`).join('');
    site.set(`/${section}/`, html(page(section[0]!.toUpperCase() + section.slice(1), `<p>${paragraph(section, section, si)}</p><ul>${list}</ul><img src="/static/images/${section}.svg" alt="${section}">`, '<a href="/">Home</a>')));
    site.set(`/static/images/${section}.svg`, { contentType: 'image/svg+xml', body: SVG_IMAGE(section, si * 60) });
    titles.forEach((title, ti) => {
      const next = titles[(ti + 1) % titles.length]!;
      const other = SECTIONS[sectionNames[(si + 1) % sectionNames.length]!][ti]!;
      const otherSection = sectionNames[(si + 1) % sectionNames.length]!;
      const body = `<p>${paragraph(section, title, ti)}</p>
<p>See also <a href="/${section}/${slug(next)}.html">${next}</a>, and in ${otherSection}: <a href="/${otherSection}/${slug(other)}.html">${other}</a>.</p>
<figure><img src="/static/images/${section}.svg" alt="${title}"><figcaption>${title}</figcaption></figure>`;
      site.set(`/${section}/${slug(title)}.html`, html(page(title, body, `<a href="/">Home</a> › <a href="/${section}/">${section}</a>`)));
    });
  });

  const news = Array.from({ length: 6 }, (_, i) => ({ title: `Town news ${i + 1}`, path: `/news/item-${i + 1}.html`, day: 10 + i }));
  site.set('/news/', html(page('News', `<ul>${news.map((n) => `<li><a href="${n.path}">${n.title}</a></li>`).join('')}</ul>`, '<a href="/">Home</a>')));
  for (const n of news) site.set(n.path, html(page(n.title, `<p>Published 2026-11-${n.day}. ${paragraph('harbour', n.title, n.day)}</p>`, '<a href="/news/">News</a>')));
  site.set('/news/feed.xml', {
    contentType: 'application/rss+xml',
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Tidemark Bay news</title><link>${origin}/news/</link>${news
      .map((n) => `<item><title>${n.title}</title><link>${origin}${n.path}</link><pubDate>${new Date(Date.UTC(2026, 10, n.day)).toUTCString()}</pubDate></item>`)
      .join('')}</channel></rss>`,
  });

  site.set('/static/site.css', {
    contentType: 'text/css',
    body: `body{font-family:sans-serif;max-width:46rem;margin:auto;background:url(/static/images/paper.svg)}nav a{margin-right:.5rem}`,
  });
  site.set('/static/images/paper.svg', { contentType: 'image/svg+xml', body: SVG_IMAGE('', 40) });
  site.set('/static/images/bay.svg', { contentType: 'image/svg+xml', body: SVG_IMAGE('Tidemark Bay', 200) });
  site.set('/static/icon.svg', { contentType: 'image/svg+xml', body: SVG_IMAGE('T', 220) });
  // Every crawl asks a site for /favicon.ico (scope.includeFavicon), as browsers do: answered, a first crawl logs no 404.
  site.set('/favicon.ico', { contentType: 'image/svg+xml', body: SVG_IMAGE('T', 220) });
  site.set('/robots.txt', { contentType: 'text/plain', body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n` });
  const pages = [...site.keys()].filter((p) => p.endsWith('/') || p.endsWith('.html')).filter((p) => !p.startsWith('/private/'));
  site.set('/sitemap.xml', {
    contentType: 'application/xml',
    body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages
      .map((p) => `<url><loc>${origin}${p}</loc><changefreq>${p.startsWith('/news/') ? 'daily' : 'monthly'}</changefreq></url>`)
      .join('')}</urlset>`,
  });
  return site;
}
