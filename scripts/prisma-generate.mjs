// Generates the Prisma client offline: the CLI wants a schema-engine binary it would download;
// `generate` never runs it, so any existing executable satisfies the check.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync('/bin/true') ? '/bin/true' : process.execPath;
if (!existsSync('prisma/schema.prisma')) process.exit(0);
const result = spawnSync('npx', ['--no-install', 'prisma', 'generate'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
