/**
 * Issue 29 item 2 through the real CLI: an SDK server whose tool elicits a form; `--answer`
 * gives the form's JSON object (fields left out take their defaults), a headless run with no
 * scripted answer declines, and both questions are events of the run (so they are journaled).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { modelArgs, workerProject, WORKER as AGENT, outputsOf } from './cli-mcp-harness.ts';

afterEach(cleanUpAll);

const SERVER = join(import.meta.dirname, '../fixtures/mcp/eliciting-server.mjs');

async function runBooking(extra: string[]) {
  const dir = await temporaryDirectory('mcp-elicit');
  const model = await startModelServer(
    delegatingTask(
      'work',
      'worker',
      [call(AGENT, 'mcp_desk_book', {}), reply(AGENT, 'Booked.')],
      'Worked',
    ),
  );
  const project = await writeProject(
    workerProject(
      `mcp "desk" {\n  command = "node"\n  args    = ["${SERVER}"]\n}\n`,
      '[mcp.desk.book]',
    ),
  );
  const run = await sortie([
    'run',
    project,
    '--json',
    ...extra,
    ...modelArgs(model, join(dir, 'state')),
  ]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  model.assertDone();
  const last = model.requests.filter((request) => request.actor === AGENT).at(-1);
  const events = jsonLines(run.stdout).filter((event) => String(event.type).startsWith('human.'));
  return { output: outputsOf(last!.body), events };
}

describe('MCP elicitation through the CLI', () => {
  it('answers a form from --answer, defaults filled in, and declines headless without one', async () => {
    const answered = await runBooking(['--answer', '{"city":"Oslo"}']);
    expect(answered.output).toEqual([
      '{"action":"accept","content":{"city":"Oslo","nights":2,"breakfast":true}}',
    ]);
    expect(
      answered.events.map((event) => [
        event.type,
        event.actor,
        event.question ?? event.answer,
        event.how,
      ]),
    ).toEqual([
      ['human.asked', AGENT, 'Where should the stay be booked?', undefined],
      ['human.answered', AGENT, '{"city":"Oslo"}', 'script'],
    ]);

    const headless = await runBooking([]);
    expect(headless.output).toEqual(['{"action":"decline"}']);
    expect(headless.events.map((event) => [event.type, event.how])).toEqual([
      ['human.asked', undefined],
      ['human.answered', 'unavailable'],
    ]);
  }, 120_000);
});
