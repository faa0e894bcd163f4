import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // CI=true (as .ci/run exports) switches Ink to its CI mode, which draws only the last
    // frame; tests that exercise the interactive TUI set the mode they want themselves.
    env: { CI: 'false' },
  },
});
