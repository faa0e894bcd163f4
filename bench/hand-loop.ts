/**
 * A loop written by hand against the `openai` SDK's Responses API, streaming, tools run by the
 * caller: what the benchmarks compare sortie with (bench/overhead.ts, bench/runtime.ts).
 */
import type OpenAI from 'openai';
import type {
  FunctionTool,
  ResponseInputItem,
  ResponseOutputItem,
} from 'openai/resources/responses/responses';

/** What one actor sends besides its conversation: the same system prompt, tools and task. */
export interface ActorPrompt {
  instructions: string;
  tools: FunctionTool[];
  /** The first user message's text. */
  task: string;
}

/** One streamed request; returns the response's output items. */
export async function streamTurn(
  sdk: OpenAI,
  actor: string,
  prompt: ActorPrompt,
  input: ResponseInputItem[],
): Promise<ResponseOutputItem[]> {
  const stream = await sdk.responses.create(
    {
      model: 'gpt-4o',
      instructions: prompt.instructions,
      input,
      tools: prompt.tools,
      stream: true,
      store: false,
    },
    { headers: { 'x-sortie-actor': actor } },
  );
  let output: ResponseOutputItem[] = [];
  for await (const event of stream)
    if (event.type === 'response.completed') output = event.response.output;
  return output;
}

/**
 * A conversation until the model stops calling tools (or `last` is called), `execute` running
 * each call by hand; returns the final text and counts requests into `counter`.
 */
export async function converse(
  sdk: OpenAI,
  actor: string,
  prompt: ActorPrompt,
  counter: { requests: number },
  execute: (name: string, args: string) => Promise<string>,
  last?: string,
): Promise<string> {
  const input: ResponseInputItem[] = [{ role: 'user', content: prompt.task }];
  for (;;) {
    const output = await streamTurn(sdk, actor, prompt, input);
    counter.requests += 1;
    input.push(...(output as ResponseInputItem[]));
    let finished = true;
    for (const item of output) {
      if (item.type !== 'function_call') continue;
      finished = item.name === last;
      const result = await execute(item.name, item.arguments);
      input.push({ type: 'function_call_output', call_id: item.call_id, output: result });
    }
    if (finished) {
      const message = output.find((item) => item.type === 'message');
      return message?.type === 'message' && message.content[0]?.type === 'output_text'
        ? message.content[0].text
        : '';
    }
  }
}
