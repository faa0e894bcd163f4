/**
 * A mission whose agents answer with megabytes: a parallel task over `items` pages, each
 * item's commander calls the `reader` agent, whose answer (the page, `pageText(index)`) comes
 * back to the commander as the result of `call_agent` (stored as a large result: the commander
 * sees its summary). For the journal-size crash test and
 * the resume benchmark (bench/resume.ts). Anthropic's wire format: OpenAI's repeats a reply's
 * whole text in its closing SSE events, which the SDK's decoder scans in quadratic time.
 */
import type { RespondRequest, ScriptTurn } from '../../../src/testing/index.ts';
import { call } from '../../helpers/script-turns.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';

/** The project (anthropic at `vars.base_url`) with `items` pages read two at a time. */
export function largeResultProject(items: number): string {
  const pages = Array.from({ length: items }, (_, index) => `{ n = ${index} }`).join(', ');
  return `
${modelPreamble('anthropic')}agent "reader" {
  model       = models.main.claude_haiku_4_5
  personality = "You read pages aloud."
}
mission "pages" {
  commander {
    model = models.main.claude_haiku_4_5
  }
  agents = [agents.reader]
  dataset "pages" {
    items = [${pages}]
  }
  task "read" {
    objective = "Read page \${item.n}"
    iterator {
      dataset = datasets.pages
      parallel = true
      concurrency_limit = 2
    }
    output = {
      chars = number("Characters read", true)
    }
  }
}
`;
}

/**
 * Page `index` as the reader reads it: JSON-looking records (quotes, which JSON escapes) up to
 * `bytes` bytes, different for every page, a newline after every 50 records. The scripted
 * server streams text in word-sized deltas: megabytes of short words would take it minutes,
 * and one megabyte-long SSE event costs the SDK's line decoder quadratic time.
 */
export function pageText(index: number, bytes: number): string {
  const records: string[] = [];
  let size = 0;
  for (let line = 0; size < bytes; line++) {
    const record = `{"page":${index},"line":${line},"text":"the_quick_brown_fox_jumps_over_the_lazy_dog"}${line % 50 === 49 ? '\n' : ''}`;
    records.push(record);
    size += record.length;
  }
  return records.join('').slice(0, bytes);
}

/** The output each item submits: the length of its page. */
export function pageOutput(bytes: number): { chars: number } {
  return { chars: bytes };
}

interface ContentBlock {
  type?: string;
  id?: string;
  tool_use_id?: string;
  content?: unknown;
}

/**
 * How many tool calls the request's conversation (Anthropic messages) has made, except those a
 * restart interrupted: like a model, the script calls those again.
 */
export function anthropicCallsSoFar(body: unknown): number {
  const messages = (body as { messages?: Array<{ content?: unknown }> }).messages ?? [];
  const blocks = messages.flatMap((message) =>
    Array.isArray(message.content) ? (message.content as ContentBlock[]) : [],
  );
  const interrupted = new Set(
    blocks
      .filter((block) => block.type === 'tool_result')
      .filter((block) => JSON.stringify(block.content).includes('interrupted by a restart'))
      .map((block) => block.tool_use_id),
  );
  return blocks.filter((block) => block.type === 'tool_use' && !interrupted.has(block.id)).length;
}

/** The scripted server's `respond` for pages of `bytes` bytes. */
export function respondToPages(bytes: number): (request: RespondRequest) => ScriptTurn | undefined {
  return (request) => {
    const actor = request.actor ?? '';
    const match = /^(commander|agent):read\[(\d+)\](\/reader)?$/.exec(actor);
    if (match === null) return undefined;
    const index = Number(match[2]);
    const step = anthropicCallsSoFar(request.body);
    if (match[1] === 'agent') {
      return step === 0
        ? { text: pageText(index, bytes), usage: { input: 50, output: 8 } }
        : undefined;
    }
    const steps = [
      call('set_subtasks', { subtasks: ['Read the page'] }),
      call('call_agent', { name: 'reader', task: `Read page ${index}` }),
      call('complete_subtask', {}),
      call('submit_output', { output: pageOutput(bytes) }),
      call('task_complete', { summary: `read page ${index}` }),
    ];
    return steps[step];
  };
}
