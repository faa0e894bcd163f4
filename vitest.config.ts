import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The CLI indexes every run under XDG_STATE_HOME (else ~/.local/state): tests never touch the
// real home's run index. A test that lists the index sets its own.
const stateHome = mkdtempSync(join(tmpdir(), 'sortie-test-state-'));
// The built CLI, made once per suite run by the first test that needs it (test/e2e/built-cli.ts).
const buildHome = mkdtempSync(join(tmpdir(), 'sortie-test-build-'));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // A timeout bounds a hang; it is not a speed check (benchmarks are). Tests that start CLI
    // children took over 20 s on a 2-core machine under load (a full suite beside other work).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI=true (as .ci/run exports) switches Ink to its CI mode, which draws only the last
    // frame; tests that exercise the interactive TUI set the mode they want themselves.
    // SORTIE_RUN_SOURCES: CLI tests run bin/sortie.js, which must run the sources under test
    // even when a dist/ build exists (npm run demo makes one).
    env: {
      CI: 'false',
      SORTIE_RUN_SOURCES: '1',
      XDG_STATE_HOME: stateHome,
      SORTIE_TEST_BUILD: buildHome,
    },
  },
});
