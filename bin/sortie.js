#!/usr/bin/env node
// Runs the compiled CLI when it exists (fast start), else the TypeScript sources through tsx.
// SORTIE_RUN_SOURCES=1 forces the sources (the test suite sets it, so a build never hides them).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
if (existsSync(compiled) && process.env.SORTIE_RUN_SOURCES !== '1') {
  await import(pathToFileURL(compiled).href);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('../src/cli/main.ts', import.meta.url);
}
