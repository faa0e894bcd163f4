/**
 * The form of an MCP server's question in the terminal UI (issue 29 item 2): defaults filled in,
 * typed and picked values, required and number fields checked with a message, and the JSON
 * object it sends; its lines mark the focused field and show the problem.
 */
import { describe, expect, it } from 'vitest';
import type { HumanFormField } from '../../../src/base/events.ts';
import {
  eraseIn,
  formAnswer,
  formFor,
  moveField,
  pickValue,
  typeInto,
} from '../../../src/tui/view/answer-form.ts';
import { formLines } from '../../../src/tui/view/form-lines.ts';
import { createTuiStore, type OpenQuestion } from '../../../src/tui/store/index.ts';

function field(name: string, patch: Partial<HumanFormField>): HumanFormField {
  return {
    name,
    label: name,
    description: null,
    type: 'string',
    choices: [],
    default: null,
    required: false,
    ...patch,
  };
}

const FIELDS: HumanFormField[] = [
  field('city', { required: true, description: 'The city' }),
  field('nights', { type: 'integer', default: 2 }),
  field('breakfast', { type: 'boolean', default: true }),
  field('room', { choices: ['single', 'double'] }),
  field('budget', { type: 'number', label: 'Budget (EUR)' }),
];

describe('the answer form', () => {
  it('starts with the defaults and sends them with what was typed and picked', () => {
    let form = formFor('key', FIELDS);
    expect(form.values).toEqual(['', '2', 'yes', '', '']);
    form = typeInto(form, FIELDS, 'Oslox');
    form = eraseIn(form, FIELDS);
    form = moveField(form, FIELDS, 1);
    form = eraseIn(form, FIELDS);
    form = typeInto(form, FIELDS, '3');
    form = moveField(form, FIELDS, 1);
    form = typeInto(form, FIELDS, 'ignored');
    form = pickValue(form, FIELDS, 1);
    form = moveField(form, FIELDS, 1);
    form = pickValue(form, FIELDS, -1);
    expect(form.values).toEqual(['Oslo', '3', 'no', 'double', '']);
    expect(formAnswer(form, FIELDS)).toEqual({
      ok: true,
      answer: { city: 'Oslo', nights: 3, breakfast: false, room: 'double' },
    });
  });

  it('names the first field that does not fit and where it is', () => {
    const empty = formFor('key', FIELDS);
    expect(formAnswer(empty, FIELDS)).toEqual({
      ok: false,
      problem: 'city is required',
      focus: 0,
    });
    const fractional = { ...empty, values: ['Oslo', '2.5', 'yes', '', ''] };
    expect(formAnswer(fractional, FIELDS)).toEqual({
      ok: false,
      problem: 'nights must be a whole number',
      focus: 1,
    });
    const words = { ...empty, values: ['Oslo', '2', 'yes', '', 'lots'] };
    expect(formAnswer(words, FIELDS)).toEqual({
      ok: false,
      problem: 'Budget (EUR) must be a number',
      focus: 4,
    });
  });

  it('moves round the ends and lets an optional choice go back to not given', () => {
    const form = formFor('key', FIELDS);
    expect(moveField(form, FIELDS, -1).focus).toBe(4);
    const room = { ...form, focus: 3 };
    expect(pickValue(room, FIELDS, -1).values[3]).toBe('double');
    expect(pickValue(pickValue(room, FIELDS, 1), FIELDS, -1).values[3]).toBe('');
  });

  it('shows one line per field, the focused one marked, and the problem', () => {
    const question: OpenQuestion = {
      actor: 'agent:work/worker',
      callId: 'call-1.elicitation-1',
      question: 'Where should the stay be booked?',
      choices: [],
      multiSelect: false,
      shortSummary: null,
      additionalContext: null,
      timeoutSeconds: null,
      form: FIELDS,
    };
    const form = { ...formFor('key', FIELDS), problem: 'city is required' };
    expect(formLines(question, form).map((line) => line.text)).toEqual([
      '? agent:work/worker asks you:',
      'Where should the stay be booked?',
      '',
      '> city*: ▌  (text: The city)',
      '  nights: 2  (a whole number)',
      '  breakfast: ‹ yes ›  (yes or no)',
      '  room: ‹ (not given) ›  (one of single, double)',
      '  Budget (EUR):   (a number)',
      '',
      '(* required; tab/↑/↓ field, ←/→ value; enter sends, esc answers later)',
      'city is required',
    ]);
  });

  it('reaches the store with the control characters of the server words escaped', () => {
    const store = createTuiStore();
    store.dispatch({
      type: 'human.asked',
      seq: 1,
      time: '2026-11-28T17:00:00.000Z',
      runId: 'run-1',
      actor: 'agent:work/worker',
      callId: 'call-1.elicitation-1',
      question: 'Where\u001b[2J?',
      choices: [],
      multiSelect: false,
      shortSummary: null,
      additionalContext: null,
      timeoutSeconds: null,
      form: [
        field('city', { label: 'City\u001b]0;TITLE\u0007', description: 'Its\u001b[31m name' }),
      ],
    });
    store.flush();
    const [question] = store.getState().questions;
    expect(question?.question).toBe('Where\\x1b[2J?');
    expect(question?.form?.[0]).toMatchObject({
      label: 'City\\x1b]0;TITLE\\x07',
      description: 'Its\\x1b[31m name',
    });
  });
});
