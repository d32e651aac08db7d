#!/usr/bin/env node
// Entry point of `npx tidemark`: registers tsx so the TypeScript worker code runs as is.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../worker/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
