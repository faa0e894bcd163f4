import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, top to bottom (docs/architecture.md): a folder imports only folders below
 * it. `testing` (the scripted model server users test with) stands apart and uses only `base`.
 */
const layers = [
  'cli',
  'serve',
  'tui',
  // Beside tui (neither imports the other, see below): exporters fed by the run's events.
  'observe',
  // Evaluations: cases × variants → runs (through run/) → scores → report.
  'eval',
  'run',
  'actors',
  'machines',
  'journal',
  'runtime',
  'present',
  'tools',
  'config',
  'models',
  'schema',
  'base',
];
const layerPolicies = layers.map((layer, index) => ({
  from: { element: { type: layer } },
  allow: { to: { element: { types: { anyOf: [layer, ...layers.slice(index + 1)] } } } },
}));

/** Packages only one folder may import (STYLE.md: one place per dependency that matters). */
const ownedPackages = [
  { owner: 'models', sources: ['openai', 'openai/**', '@anthropic-ai/**', '@google/genai'] },
  { owner: 'config', sources: ['@cdktf/hcl2json'] },
  // The client in tools; sortie's own MCP server in serve (only its mcp-host/ folder: below).
  { owner: ['tools', 'serve'], sources: ['@modelcontextprotocol/**'] },
  { owner: 'observe', sources: ['@opentelemetry/**'] },
];
const packagePolicies = ownedPackages.map(({ owner, sources }) => ({
  from: {
    element: { types: { noneOf: Array.isArray(owner) ? owner : [owner] } },
  },
  disallow: { to: { module: { origin: 'external', source: sources } } },
}));

/**
 * Packages only one folder of src/ imports (docs/architecture.md). Distributed runs: BullMQ and
 * its Redis client belong to src/actors/queue/, which the run and worker wiring load lazily (a
 * run without --queue never loads them). The HTTP transport: undici belongs to src/base/http/,
 * which loads it with the first request; everything else sends through its fetch. The service's
 * HTTP framework belongs to src/serve/, which only `sortie serve` loads.
 */
const soleImporters = [
  { folder: 'src/actors/queue/', packages: ['bullmq', 'ioredis'] },
  { folder: 'src/base/http/', packages: ['undici'] },
  { folder: 'src/serve/', packages: ['hono', '@hono/node-server'] },
];

/** One config object refusing, in `files` but not `ignores`, the packages of `owners`. */
function restrictImports(files, ignores, owners) {
  const message = (folder) => `only ${folder} imports it (docs/architecture.md)`;
  return {
    files,
    ignores,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: owners.flatMap(({ folder, packages }) =>
            packages.map((name) => ({ name, message: message(folder) })),
          ),
          patterns: owners.flatMap(({ folder, packages }) =>
            packages.map((name) => ({ group: [`${name}/*`], message: message(folder) })),
          ),
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bin/', '.ci/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // The MCP servers of the tests and examples are plain JavaScript: a stdio child starts
        // without a TS loader; so is the module hook `node --import` loads before the CLI.
        projectService: {
          allowDefaultProject: [
            'test/fixtures/mcp/*.mjs',
            'test/fixtures/observe/*.mjs',
            'examples/*/server/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        ...[...layers, 'testing'].map((layer) => ({
          type: layer,
          pattern: `src/${layer}`,
          partialMatch: false,
        })),
        // The package's entry points directly in src/ (index.ts) may import every layer.
        { type: 'package', pattern: 'src', partialMatch: false },
      ],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkAllOrigins: true,
          checkUnknownLocals: true,
          policies: [
            // Packages and Node's own modules are for everyone, except those owned below.
            { allow: { to: { module: { origin: ['external', 'core'] } } } },
            ...layerPolicies,
            {
              from: { element: { type: 'testing' } },
              allow: { to: { element: { type: 'base' } } },
            },
            {
              from: { element: { type: 'testing' } },
              allow: { to: { element: { type: 'testing' } } },
            },
            { from: { element: { type: 'package' } }, allow: { to: { element: { type: '*' } } } },
            // xstate is the machines' engine: plain services and what lies below them never see it.
            {
              from: {
                element: {
                  types: {
                    anyOf: ['runtime', 'present', 'tools', 'config', 'models', 'schema', 'base'],
                  },
                },
              },
              disallow: { to: { module: { origin: 'external', source: 'xstate' } } },
            },
            // The service runs missions without a terminal: it never loads the TUI.
            {
              from: { element: { type: 'serve' } },
              disallow: { to: { element: { type: 'tui' } } },
            },
            // The TUI renders events: it never reaches into models or config, nor the exporters
            // that sit beside it.
            {
              from: { element: { type: 'tui' } },
              disallow: { to: { element: { types: { anyOf: ['models', 'config', 'observe'] } } } },
            },
            ...packagePolicies,
            // croner computes schedules' fire times in serve; config uses it only to check patterns.
            {
              from: {
                element: {
                  types: {
                    anyOf: [
                      ...layers.filter((layer) => layer !== 'serve' && layer !== 'config'),
                      'testing',
                      'package',
                    ],
                  },
                },
              },
              disallow: { to: { module: { origin: 'external', source: 'croner' } } },
            },
          ],
        },
      ],
      'boundaries/no-unknown-files': 'error',
    },
  },
  // Packages one folder of src/ imports alone (soleImporters) are refused everywhere else.
  // Inside one of those folders, the others' packages are refused.
  restrictImports(
    ['src/**/*.ts', 'src/**/*.tsx'],
    soleImporters.map(({ folder }) => `${folder}**`),
    soleImporters,
  ),
  ...soleImporters.map(({ folder }) =>
    restrictImports(
      [`${folder}**`],
      [],
      soleImporters.filter((owner) => owner.folder !== folder),
    ),
  ),
  // Inside serve, only the MCP server's folder speaks MCP (the client lives in src/tools/).
  restrictImports(
    ['src/serve/**'],
    ['src/serve/mcp-host/**'],
    [
      ...soleImporters.filter((owner) => owner.folder !== 'src/serve/'),
      { folder: 'src/serve/mcp-host/ (and src/tools/)', packages: ['@modelcontextprotocol/sdk'] },
    ],
  ),
);
