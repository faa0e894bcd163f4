/**
 * A run cancelled while an agent's tool call is in flight ends with `run.finished`: the call's
 * late settling (its aborted HTTP request, the closing of its open tool call) reports nothing.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreateAgentSession, RunHandle } from '../../src/actors/contracts.ts';
import { createAgentSession } from '../../src/actors/agent/index.ts';
import { call, cleanUp, runEngine } from './engine-harness.ts';

afterEach(cleanUp);

const HCL = `
agent "worker" {
  model = MODEL
  personality = "You work."
  tools = [builtins.http.get]
}
mission "m" {
  commander {
    model = MODEL
  }
  agents = [agents.worker]
  task "t" {
    objective = "Do it"
  }
}`;

/** Agent sessions whose calls the test can wait for after the run has finished. */
function trackedSessions(): { create: CreateAgentSession; settled: () => Promise<unknown> } {
  const calls: Array<Promise<unknown>> = [];
  const create: CreateAgentSession = (services, spec) => {
    const session = createAgentSession(services, spec);
    const call = session.call.bind(session);
    session.call = (task, signal) => {
      const pending = call(task, signal);
      calls.push(pending);
      return pending;
    };
    return session;
  };
  return { create, settled: () => Promise.allSettled(calls) };
}

describe('cancelling a run during an agent tool call', () => {
  it('reports nothing after run.finished, however late the call settles', async () => {
    const held: ServerResponse[] = [];
    let run: RunHandle | undefined;
    // The request reaching the API is the moment the tool call is in flight: cancel there.
    const api = createServer((_request, response) => {
      held.push(response);
      run?.cancel();
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/slow`;
    const sessions = trackedSessions();
    try {
      const { events, result } = await runEngine({
        hcl: HCL,
        mission: 'm',
        dependencies: { createAgentSession: sessions.create },
        turns: [
          call('commander:t', 'set_subtasks', { subtasks: ['Go'] }),
          call('commander:t', 'call_agent', { name: 'worker', task: 'Fetch' }),
          call('agent:t/worker', 'builtins_http_get', { url }),
        ],
        onStart: (handle) => {
          run = handle;
        },
      });
      await sessions.settled();
      expect(result.status).toBe('cancelled');
      expect(held).toHaveLength(1);
      const finished = events.findIndex((event) => event.type === 'run.finished');
      expect(events.slice(finished).map((event) => event.type)).toEqual(['run.finished']);
    } finally {
      for (const response of held) response.destroy();
      api.close();
    }
  });
});
