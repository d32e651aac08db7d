/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or Node-only packages the route handlers reach through worker/: loaded from
  // node_modules at run time instead of being bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/client', 'undici', 'warcio', 'saxes', 'xpath', 'franc', 'snowball-stemmers', 'stopword', 'htmlparser2', 'robots-parser', 'tldts'],
  poweredByHeader: false,
};

export default nextConfig;
