#!/usr/bin/env node
// Runs the compiled CLI (dist/, what an installed package ships). In the repository, the
// TypeScript sources run through tsx (a dev dependency) when there is no build yet, or when
// SORTIE_RUN_SOURCES=1 (the test suite sets it, so a stale build never hides the sources).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// React, and so Ink's TUI, picks its development or production build from NODE_ENV when it
// first loads (lazily, once a TUI is shown). The development build checks every render and
// keeps a trace of each: several times slower and hungrier, for nothing a person sees. A person's
// terminal gets the production build unless NODE_ENV says otherwise (vitest sets `test`).
if (process.env.NODE_ENV === undefined || process.env.NODE_ENV === '') {
  process.env.NODE_ENV = 'production';
}

const compiled = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const sources = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
// An installed package ships no sources: it always runs the build.
const useSources =
  existsSync(sources) && (process.env.SORTIE_RUN_SOURCES === '1' || !existsSync(compiled));
if (useSources) {
  const { tsImport } = await import('tsx/esm/api').catch(() => {
    process.stderr.write('sortie: running the sources needs tsx: npm install, or npm run build\n');
    process.exit(2);
  });
  // The checkout's tsconfig, wherever the command runs: tsx would otherwise look for one from
  // the working folder and compile the TUI's JSX without the React runtime it names.
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  await tsImport('../src/cli/main.ts', {
    parentURL: import.meta.url,
    ...(existsSync(tsconfig) ? { tsconfig } : {}),
  });
} else if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  process.stderr.write(`sortie: no build at ${compiled}; reinstall the package\n`);
  process.exitCode = 2;
}
