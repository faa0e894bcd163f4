/**
 * The research example's script, for the README's question "Why is the sky blue?": the
 * researcher gathers sources and extracts findings (a structured output), the commander of
 * `decide` reads them with query_task_output and picks the `publish` route, and the writer
 * writes the answer. Nobody calls a tool that would reach the internet.
 */
import type { ScriptTurn } from '../../src/testing/index.ts';
import type { ExampleScript } from '../record-cassette.ts';

const QUESTION = 'Why is the sky blue?';

const SOURCES = [
  'https://en.wikipedia.org/wiki/Rayleigh_scattering',
  'https://www.metoffice.gov.uk/weather/learn-about/weather/optical-effects/why-is-the-sky-blue',
];

const FINDINGS = {
  findings: [
    {
      claim:
        'Air molecules scatter short (blue) wavelengths of sunlight far more than long (red) ones: Rayleigh scattering grows with the inverse fourth power of the wavelength.',
      confidence: 0.95,
      sources: SOURCES,
    },
    {
      claim:
        'The sky looks blue rather than violet because sunlight has less violet, some is absorbed high in the atmosphere, and our eyes are more sensitive to blue.',
      confidence: 0.8,
      sources: [SOURCES[1] ?? ''],
    },
  ],
  gaps: ['How much each of the three violet effects contributes'],
};

const ANSWER =
  'The sky is blue because the air scatters sunlight, and it scatters short wavelengths much ' +
  'more than long ones (Rayleigh scattering). Blue light is bounced around the whole sky and ' +
  'reaches your eyes from every direction. Violet is scattered even more, but sunlight holds ' +
  'less of it and our eyes are less sensitive to it, so we see blue. Sources: Wikipedia, ' +
  '"Rayleigh scattering"; Met Office, "Why is the sky blue?".';

/** A commander turn calling one tool. */
function call(
  actor: string,
  name: string,
  args: Record<string, unknown>,
  input: number,
  output: number,
): ScriptTurn {
  return {
    match: { actor },
    toolCalls: [{ name, arguments: args }],
    usage: { input, output, cacheRead: 1024 },
  };
}

/** An agent's answer, with the reasoning its model showed. */
function answer(actor: string, text: string, reasoning: string, input: number): ScriptTurn {
  return { match: { actor }, reasoning, text, usage: { input, output: 180, reasoning: 60 } };
}

const gather = 'commander:gather';
const analyze = 'commander:analyze';
const decide = 'commander:decide';
const publish = 'commander:publish';

/** examples/research, run with `--input question="Why is the sky blue?"`. */
export const researchExample: ExampleScript = {
  name: 'research',
  mission: 'research',
  inputs: { question: QUESTION },
  keyVariables: ['anthropic_api_key', 'openai_api_key'],
  turns: [
    call(gather, 'set_subtasks', { subtasks: ['Find two reliable sources'] }, 1350, 30),
    call(
      gather,
      'call_agent',
      { name: 'researcher', task: `Find two reliable sources that answer: ${QUESTION}` },
      1420,
      45,
    ),
    answer(
      'agent:gather/researcher',
      `Two sources agree: ${SOURCES.join(' and ')}. Both explain the colour by Rayleigh scattering.`,
      'An encyclopedia article and a national weather service page should be enough.',
      820,
    ),
    call(gather, 'complete_subtask', {}, 1610, 12),
    call(
      gather,
      'task_complete',
      { summary: `Two sources explain it by Rayleigh scattering: ${SOURCES.join(', ')}` },
      1660,
      60,
    ),
    call(analyze, 'set_subtasks', { subtasks: ['Extract and rate the findings'] }, 1500, 28),
    call(
      analyze,
      'call_agent',
      {
        name: 'researcher',
        task: 'From the two sources, list the key findings about why the sky is blue, with how well each is supported.',
      },
      1570,
      52,
    ),
    answer(
      'agent:analyze/researcher',
      'Main finding: Rayleigh scattering favours blue (both sources). Secondary: blue not violet because of the solar spectrum, absorption and eye sensitivity (one source).',
      'The second point rests on one source only; rate it lower.',
      960,
    ),
    call(analyze, 'complete_subtask', {}, 1780, 12),
    call(analyze, 'submit_output', { output: FINDINGS }, 1830, 210),
    call(
      analyze,
      'task_complete',
      { summary: 'Two findings: Rayleigh scattering (0.95), why blue not violet (0.8)' },
      2060,
      40,
    ),
    call(decide, 'set_subtasks', { subtasks: ['Read the findings', 'Choose a route'] }, 1400, 34),
    call(decide, 'query_task_output', { task: 'analyze' }, 1460, 20),
    call(decide, 'complete_subtask', {}, 1900, 12),
    call(decide, 'complete_subtask', {}, 1950, 12),
    call(
      decide,
      'task_complete',
      {
        summary: 'The main finding is well supported; the open gap is a detail.',
        route: 'publish',
      },
      2000,
      38,
    ),
    call(publish, 'set_subtasks', { subtasks: ['Have the answer written'] }, 1380, 26),
    call(
      publish,
      'call_agent',
      {
        name: 'writer',
        task: `Write a short answer to "${QUESTION}" for a general reader from these findings, citing the sources: ${JSON.stringify(FINDINGS)}`,
      },
      1520,
      190,
    ),
    { match: { actor: 'agent:publish/writer' }, text: ANSWER, usage: { input: 640, output: 150 } },
    call(publish, 'complete_subtask', {}, 1890, 12),
    call(publish, 'task_complete', { summary: ANSWER }, 1960, 160),
  ],
};
