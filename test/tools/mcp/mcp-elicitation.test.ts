/**
 * A server's elicitation (issue 29 item 2) reaches the calling agent's asker as a question
 * and its answer goes back to the server: a form of several fields as a JSON object with
 * defaults, a single choice, a link (URL mode), and no person declines.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HumanAsker, HumanQuestion } from '../../../src/tools/builtins/human-ask.ts';
import { NO_HUMAN_AVAILABLE } from '../../../src/tools/builtins/human-ask.ts';
import { cleanUp, openPool } from './mcp-harness.ts';

afterEach(cleanUp);

const signal = new AbortController().signal;
const SERVER = join(import.meta.dirname, '../../fixtures/mcp/eliciting-server.mjs');

/** An asker that answers `answer` and keeps what it was asked. */
function askerAnswering(
  answer: string,
  asked: Array<{ question: HumanQuestion; callId: string }>,
): HumanAsker {
  return {
    ask: async (question, call) => {
      asked.push({ question, callId: call.callId });
      return answer;
    },
  };
}

async function callAsking(tool: string, answer: string) {
  const pool = await openPool([
    { kind: 'command', name: 'desk', command: process.execPath, args: [SERVER], env: {} },
  ]);
  const tools = await pool.toolsFor([{ server: 'desk', tool }], signal);
  const asked: Array<{ question: HumanQuestion; callId: string }> = [];
  const outcome = await tools[0]!.execute(
    {},
    { signal, callId: 'call-1', human: askerAnswering(answer, asked) },
  );
  return { result: JSON.parse(outcome.content as string) as unknown, asked };
}

describe('MCP elicitation', () => {
  it('asks for a form as a JSON object and fills the fields left out with their defaults', async () => {
    const { result, asked } = await callAsking('book', '{"city":"Oslo"}');
    expect(asked).toEqual([
      {
        callId: 'call-1.elicitation-1',
        question: {
          question: 'Where should the stay be booked?',
          shortSummary: 'mcp "desk" asks',
          choices: [],
          multiSelect: false,
          timeoutSeconds: null,
          additionalContext:
            'Answer with a JSON object of these fields; fields left out take their defaults:\n' +
            '- city (string, required): The city\n' +
            '- nights (integer, default 2)\n' +
            '- breakfast (boolean, default true)',
          form: [
            {
              name: 'city',
              label: 'city',
              description: 'The city',
              type: 'string',
              choices: [],
              default: null,
              required: true,
            },
            {
              name: 'nights',
              label: 'nights',
              description: null,
              type: 'integer',
              choices: [],
              default: 2,
              required: false,
            },
            {
              name: 'breakfast',
              label: 'breakfast',
              description: null,
              type: 'boolean',
              choices: [],
              default: true,
              required: false,
            },
          ],
        },
      },
    ]);
    expect(result).toEqual({
      action: 'accept',
      content: { city: 'Oslo', nights: 2, breakfast: true },
    });
  });

  it('offers the choices of a one-field form', async () => {
    const { result, asked } = await callAsking('pick', 'green');
    expect(asked[0]?.question.choices).toEqual(['red', 'green', 'blue']);
    expect(result).toEqual({ action: 'accept', content: { colour: 'green' } });
  });

  it('shows the link of a URL request and accepts once the person is done', async () => {
    const { result, asked } = await callAsking('visit', 'done');
    expect(asked[0]?.question).toMatchObject({
      question: 'Confirm the payment',
      choices: ['done', 'decline'],
      additionalContext:
        'Open this link, then answer "done" (or "decline"): https://pay.example/confirm/42',
    });
    expect(result).toEqual({ action: 'accept' });
  });

  it('declines when no person can answer, and cancels an answer that is not the form', async () => {
    expect((await callAsking('book', NO_HUMAN_AVAILABLE)).result).toEqual({ action: 'decline' });
    expect((await callAsking('book', 'Oslo please')).result).toEqual({ action: 'cancel' });
  });

  it('numbers questions per call, so a call made again after a restart asks under the same ids', async () => {
    const pool = await openPool([
      { kind: 'command', name: 'desk', command: process.execPath, args: [SERVER], env: {} },
    ]);
    const [pick] = await pool.toolsFor([{ server: 'desk', tool: 'pick' }], signal);
    const asked: Array<{ question: HumanQuestion; callId: string }> = [];
    const human = askerAnswering('red', asked);
    await pick!.execute({}, { signal, callId: 'call-1', human });
    await pick!.execute({}, { signal, callId: 'call-2', human });
    expect(asked.map((entry) => entry.callId)).toEqual([
      'call-1.elicitation-1',
      'call-2.elicitation-1',
    ]);
  });
});
