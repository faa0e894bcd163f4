import { afterEach, describe, expect, it } from 'vitest';
import { DebugGate } from '../../../src/runtime/gate.ts';
import { startHarness, startToolServer, type Harness, researcherSession } from './harness.ts';
import { until } from '../../helpers/until.ts';

let harness: Harness | undefined;
let tools: Awaited<ReturnType<typeof startToolServer>> | undefined;
afterEach(async () => {
  await harness?.close();
  await tools?.close();
  harness = undefined;
  tools = undefined;
});

function project(model: string, reasoning = ''): string {
  return `
agent "researcher" {
  model       = models.openai.${model}
  personality = "You research carefully."
  tools       = [builtins.http.get, builtins.utils.sleep]
${reasoning}
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  task "t" {
    objective = "do it"
  }
}
`;
}

describe('agent session control', () => {
  it('holds a tool call at the step gate until it is released', async () => {
    tools = await startToolServer();
    const gate = new DebugGate({ breakpoints: ['tool:builtins_http_get'] });
    harness = await startHarness({
      hcl: project('gpt_4o'),
      gate,
      turns: [
        {
          toolCalls: [{ name: 'builtins_http_get', arguments: { url: `${tools.url}/weather` } }],
        },
        { text: 'Sunny.' },
      ],
    });
    const pending = researcherSession(harness.services).call('Weather?', {
      signal: new AbortController().signal,
    });
    await until('the held tool call', () => gate.held().length === 1);

    expect(gate.held()).toEqual([
      {
        kind: 'tool',
        actor: 'agent:t/researcher',
        tool: 'builtins_http_get',
        detail: `{"url":"${tools.url}/weather"}`,
      },
    ]);
    expect(tools.seen).toEqual([]);
    expect(harness.events.some((event) => event.type === 'tool.called')).toBe(false);

    gate.continue();
    expect(await pending).toEqual({ ok: true, result: 'Sunny.' });
    expect(tools.seen).toEqual(['GET /weather -']);
  });

  it('stops when the call is cancelled and sends nothing more', async () => {
    harness = await startHarness({
      hcl: project('gpt_4o'),
      turns: [{ toolCalls: [{ name: 'builtins_utils_sleep', arguments: { seconds: 120 } }] }],
    });
    const controller = new AbortController();
    const session = researcherSession(harness.services);
    const pending = session.call('Wait a while', { signal: controller.signal });
    await until('the tool call', () =>
      harness!.events.some((event) => event.type === 'tool.called'),
    );
    controller.abort();

    expect(await pending).toEqual({ ok: false, reason: 'the agent call was cancelled' });
    expect(harness.server.requests).toHaveLength(1);
    const last = session.messages().at(-1);
    expect(last?.role).toBe('user');
    expect(last?.parts.map((part) => part.type === 'tool_result' && part.isError)).toEqual([true]);
  });

  it('sends the reasoning level to a reasoning-capable model', async () => {
    harness = await startHarness({
      hcl: project('gpt_5', '  reasoning = "high"'),
      turns: [{ text: 'Thought about it.' }],
    });
    await researcherSession(harness.services).call('Think', {
      signal: new AbortController().signal,
    });
    const body = harness.server.requests[0]?.body as Record<string, unknown>;
    expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(harness.events.find((event) => event.type === 'model.request')).toMatchObject({
      reasoning: 'high',
    });
  });

  it('leaves reasoning out for a model that cannot reason', async () => {
    harness = await startHarness({
      hcl: project('gpt_4o', '  reasoning = "high"'),
      turns: [{ text: 'Plain answer.' }],
    });
    await researcherSession(harness.services).call('Think', {
      signal: new AbortController().signal,
    });
    const body = harness.server.requests[0]?.body as Record<string, unknown>;
    expect(body.reasoning).toBeUndefined();
    expect(harness.events.find((event) => event.type === 'model.request')).toMatchObject({
      reasoning: null,
    });
  });

  it('runs a custom tool block with its templates and the project variables', async () => {
    tools = await startToolServer();
    harness = await startHarness({
      hcl: `
variable "tool_url" {}

tool "lookup" {
  implements  = builtins.http.get
  description = "Looks a term up"
  inputs = {
    q = string("The term", true)
  }
  url = "\${vars.tool_url}/lookup"
  query = {
    q = inputs.q
  }
}

agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [tools.lookup]
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  task "t" {
    objective = "do it"
  }
}
`,
      vars: { tool_url: tools.url },
      turns: [
        { toolCalls: [{ name: 'tools_lookup', arguments: { q: 'Paris' } }] },
        { text: 'Looked it up.' },
      ],
    });
    const result = await researcherSession(harness.services).call('Look up Paris', {
      signal: new AbortController().signal,
    });
    expect(result).toEqual({ ok: true, result: 'Looked it up.' });
    expect(tools.seen).toEqual(['GET /lookup?q=Paris -']);
  });
});
