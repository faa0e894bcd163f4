/**
 * `--queue` and `sortie worker` refuse what they cannot use with a clear message and exit 2,
 * before any model call: no queue, a URL that is not Redis, a Redis nobody answers at, a
 * protected input that would have to travel.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { largeResultProject } from '../actors/resume/large-result-fixture.ts';
import { sortieAsync } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let project: string;
let closedPort: number;

beforeAll(async () => {
  project = temporaryDirectorySync('queue-usage');
  const withSecret = largeResultProject(2).replace(
    'mission "pages" {',
    'mission "pages" {\n  input "token" {\n    type = "string"\n    protected = true\n  }',
  );
  writeFileSync(join(project, 'main.hcl'), withSecret);
  // A port that was free a moment ago: nothing answers there.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  closedPort = typeof address === 'object' && address !== null ? address.port : 1;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const vars = ['--var', 'api_key=sk-test', '--var', 'base_url=http://127.0.0.1:9'];

describe('sortie worker and --queue usage', () => {
  it('asks for a queue when a worker has none', async () => {
    const result = await sortieAsync(['worker'], { SORTIE_QUEUE: undefined });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'sortie worker needs --queue redis://HOST:PORT/DB (or SORTIE_QUEUE)',
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a URL that is not Redis', async () => {
    const result = await sortieAsync(['worker', '--queue', 'http://127.0.0.1:6379/0']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '--queue http://127.0.0.1:6379/0 is not a Redis URL; expected redis://HOST:PORT/DB',
    );
  });

  it('refuses a protected input given on the command line, before the run starts', async () => {
    const url = `redis://127.0.0.1:${closedPort}/0`;
    const state = temporaryDirectorySync('queue-usage-state');
    const result = await sortieAsync([
      'run',
      project,
      '--queue',
      url,
      '--plain',
      '--state-dir',
      state,
      '--input',
      'token=x',
      ...vars,
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '--queue: protected input "token" would have to travel through Redis',
    );
  });

  it('says which Redis cannot be reached', async () => {
    const url = `redis://127.0.0.1:${closedPort}/0`;
    const result = await sortieAsync(['worker', '--queue', url]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`cannot reach the queue at ${url}: `);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
