import { defineConfig } from 'prisma/config';

// The CLI only generates the client here (migrations are applied by worker/store/migrator.ts);
// on machines with Prisma's schema engine, `prisma migrate deploy` reads the same folder.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'file:./data/tidemark.db' },
});
