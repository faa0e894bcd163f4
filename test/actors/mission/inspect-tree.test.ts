/**
 * One actor system per mission: xstate's `inspect` on the mission actor sees every actor of
 * the run — tasks, their work, the parallel item tries, commanders, agents, model turns and
 * tool calls — each with a parent chain up to the mission.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createAgentSession } from '../../../src/actors/agent/index.ts';
import { runMission } from '../../../src/actors/mission/run-mission.ts';
import { loadProject } from '../../../src/config/index.ts';
import { createRunServices } from '../../../src/run/run-services.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import { ScriptedModelServer } from '../../../src/testing/index.ts';
import { RESUME_PROJECT, respondToResumable } from '../resume/resume-fixture.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let dir: string;

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToResumable });
  dir = await temporaryDirectory('inspect-tree');
  await writeFile(join(dir, 'main.hcl'), RESUME_PROJECT);
});

afterAll(async () => {
  await server.close();
});

/** The kind of an inspected actor: the name its invoking state gave it, or its machine's id. */
function kindOf(actor: AnyActorRef): string {
  if (typeof actor.src === 'string') return actor.src;
  // `logic` is on every actor xstate creates, though AnyActorRef does not declare it.
  return (actor as unknown as { logic: { id?: string } }).logic.id ?? 'other';
}

/** The kinds from the actor up to its root, the actor's own first. */
function chainOf(actor: AnyActorRef): string[] {
  const chain: string[] = [];
  for (let at: AnyActorRef | undefined = actor; at !== undefined; at = at._parent) {
    chain.push(kindOf(at));
  }
  return chain;
}

describe('inspecting a mission', () => {
  it('sees every actor of a run with a parallel iterated task under the mission actor', async () => {
    const config = await loadProject(dir, {
      vars: { api_key: 'sk-test-inspect', base_url: server.baseUrl('openai') },
      env: {},
    });
    const bus = new EventBus({ runId: 'inspect' });
    const services = await createRunServices({
      config,
      mission: 'resumable',
      inputs: { topic: 'things' },
      stateDir: join(dir, '.sortie'),
      runId: 'inspect',
      bus,
      signal: new AbortController().signal,
      newRun: true,
    });
    const actors: AnyActorRef[] = [];
    const inspect = (event: InspectionEvent): void => {
      if (event.type === '@xstate.actor') actors.push(event.actorRef as AnyActorRef);
    };
    const result = await runMission({ services, createAgentSession, inspect });
    await services.mcp.close();

    expect(result.status).toBe('succeeded');
    const counts: Record<string, number> = {};
    for (const actor of actors) counts[kindOf(actor)] = (counts[kindOf(actor)] ?? 0) + 1;
    // gather, each (3 items) and report; gather's worker; 5 + 3×4 + 5 commander turns and the
    // worker's 2; call_agent, query_task_output, ask_agent and the worker's current_time.
    expect(counts).toMatchObject({
      mission: 1,
      task: 3,
      work: 3,
      item: 3,
      commander: 5,
      agent: 1,
      modelTurn: 24,
      toolCall: 4,
    });
    const root = actors.find((actor) => kindOf(actor) === 'mission');
    for (const actor of actors) {
      expect(chainOf(actor).at(-1)).toBe('mission');
      expect(actor.system).toBe(root?.system);
    }
    const workerTurn = actors.find(
      (actor) => kindOf(actor) === 'modelTurn' && kindOf(actor._parent as AnyActorRef) === 'agent',
    );
    expect(chainOf(workerTurn as AnyActorRef)).toEqual([
      'modelTurn',
      'agent',
      'toolCall',
      'commander',
      'work',
      'task',
      'mission',
    ]);
    const itemTurn = actors.find(
      (actor) =>
        kindOf(actor) === 'modelTurn' && (actor._parent as AnyActorRef).id === 'commander:each[1]',
    );
    expect(chainOf(itemTurn as AnyActorRef)).toEqual([
      'modelTurn',
      'commander',
      'item',
      'parallelIteration',
      'work',
      'task',
      'mission',
    ]);
  });
});
