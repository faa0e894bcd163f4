/**
 * The spans around the model and tool spans: each mission's tasks, each task's iteration items,
 * and the `invoke_agent` span of each commander and agent, found (or started) from an event's
 * actor id. Spans carry the task's status, route and output size; failures set the status.
 */
import { SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { actorId, parseActorId, type EventOf } from '../base/events.ts';
import type { SpanNode, SpanTree } from './span-tree.ts';

type ScopeEvent =
  | EventOf<'task.started'>
  | EventOf<'task.succeeded'>
  | EventOf<'task.failed'>
  | EventOf<'task.cancelled'>
  | EventOf<'task.skipped'>
  | EventOf<'route.chosen'>
  | EventOf<'iteration.started'>
  | EventOf<'iteration.succeeded'>
  | EventOf<'iteration.failed'>;

type MissionEnd =
  EventOf<'mission.succeeded'> | EventOf<'mission.failed'> | EventOf<'mission.cancelled'>;

/** The size of an output as JSON, in bytes. */
function outputBytes(output: unknown): number {
  return output === undefined ? 0 : Buffer.byteLength(JSON.stringify(output) ?? '');
}

function failure(message: string): { code: SpanStatusCode; message: string } {
  return { code: SpanStatusCode.ERROR, message };
}

/** The key of an iteration item's span (a worker's job carries its context). */
export function itemKeyOf(mission: string, task: string, index: number): string {
  return `item:${mission}/${task}[${index}]`;
}

/** The scope spans of a session's tree, under the current mission's span. */
export function scopeSpans(
  tree: SpanTree,
  currentMission: () => SpanNode | undefined,
  missionName: string,
) {
  const taskKey = (task: string): string => `task:${missionName}/${task}`;
  const itemKey = (task: string, index: number): string => itemKeyOf(missionName, task, index);
  const parentOfTasks = (): SpanNode | undefined => currentMission() ?? tree.get('run');

  function task(name: string, timeMs: number, attributes: Attributes = {}): SpanNode {
    return (
      tree.get(taskKey(name)) ??
      tree.start({
        key: taskKey(name),
        name: `task ${name}`,
        parent: parentOfTasks(),
        timeMs,
        attributes: { 'sortie.task.name': name, ...attributes },
      })
    );
  }

  function item(name: string, index: number, timeMs: number): SpanNode {
    return tree.get(itemKey(name, index)) ?? startItem(name, index, '', 1, timeMs);
  }

  function startItem(
    name: string,
    index: number,
    itemId: string,
    attempt: number,
    timeMs: number,
  ): SpanNode {
    return tree.start({
      key: itemKey(name, index),
      name: `item ${name}[${index}]`,
      parent: task(name, timeMs),
      timeMs,
      attributes: {
        'sortie.task.name': name,
        'sortie.item.index': index,
        'sortie.item.id': itemId,
        'sortie.item.attempt': attempt,
      },
    });
  }

  /** The `invoke_agent` span of the actor (or the nearest scope for other actors). */
  function agentOf(actor: string, timeMs: number): SpanNode {
    const parsed = parseActorId(actor.replace(/#.*$/, ''));
    const fallback = (): SpanNode => parentOfTasks() ?? (tree.get('run') as SpanNode);
    if (parsed === undefined || (parsed.kind !== 'commander' && parsed.kind !== 'agent')) {
      const scope =
        parsed?.kind === 'task' || parsed?.kind === 'cursor'
          ? task(parsed.name, timeMs)
          : fallback();
      tree.touch(scope, timeMs);
      return scope;
    }
    const key = `agent:${missionName}/${actor}`;
    const open = tree.get(key);
    if (open !== undefined) {
      tree.touch(open, timeMs);
      return open;
    }
    const index = parsed.index ?? undefined;
    const parent =
      parsed.kind === 'agent'
        ? agentOf(actorId.commander(parsed.name, index), timeMs)
        : index === undefined
          ? task(parsed.name, timeMs)
          : item(parsed.name, index, timeMs);
    const agentName = parsed.kind === 'agent' ? (parsed.agent ?? actor) : 'commander';
    return tree.start({
      key,
      name: `invoke_agent ${agentName}`,
      parent,
      timeMs,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': agentName,
        'gen_ai.agent.id': actor,
        'sortie.task.name': parsed.name,
        ...(index !== undefined ? { 'sortie.item.index': index } : {}),
      },
    });
  }

  function onScopeEvent(event: ScopeEvent, timeMs: number): void {
    switch (event.type) {
      case 'task.started': {
        const attributes = {
          'sortie.task.iterated': event.iterated,
          ...(event.activatedBy !== null ? { 'sortie.task.activated_by': event.activatedBy } : {}),
          ...(event.restored === true ? { 'sortie.task.restored': true } : {}),
        };
        task(event.task, timeMs, attributes).span.setAttributes(attributes);
        return;
      }
      case 'route.chosen':
        // Told while the task finishes; `task.succeeded` says the route again.
        tree.get(taskKey(event.task))?.span.setAttributes({
          'sortie.task.route': event.route ?? 'none',
          'sortie.task.route_via': event.via,
        });
        return;
      case 'task.succeeded': {
        const node = task(event.task, timeMs);
        node.span.setAttributes({
          'sortie.task.status': 'succeeded',
          'sortie.output.bytes': outputBytes(event.output),
          ...(event.route !== null ? { 'sortie.task.route': event.route } : {}),
        });
        return tree.end(node, timeMs);
      }
      case 'task.failed': {
        const node = task(event.task, timeMs);
        node.span.setAttribute('sortie.task.status', 'failed');
        return tree.end(node, timeMs, failure(event.error));
      }
      case 'task.cancelled': {
        const node = task(event.task, timeMs);
        node.span.setAttributes({
          'sortie.task.status': 'cancelled',
          'sortie.reason': event.reason,
        });
        return tree.end(node, timeMs);
      }
      case 'task.skipped': {
        const node = task(event.task, timeMs, { 'sortie.task.status': 'skipped' });
        node.span.setAttributes({ 'sortie.task.status': 'skipped', 'sortie.reason': event.reason });
        return tree.end(node, timeMs);
      }
      case 'iteration.started':
        startItem(event.task, event.index, event.itemId, event.attempt, timeMs);
        return;
      case 'iteration.succeeded': {
        const node = item(event.task, event.index, timeMs);
        node.span.setAttributes({
          'sortie.item.status': 'succeeded',
          'sortie.output.bytes': outputBytes(event.output),
        });
        return tree.end(node, timeMs);
      }
      case 'iteration.failed': {
        const node = item(event.task, event.index, timeMs);
        node.span.setAttributes({
          'sortie.item.status': 'failed',
          'sortie.item.final': event.final,
        });
        return tree.end(node, timeMs, failure(event.error));
      }
    }
  }

  function endMission(event: MissionEnd, timeMs: number): void {
    const node = tree.get(`mission:${event.mission}`);
    if (node === undefined) return;
    if (event.type === 'mission.failed') tree.end(node, timeMs, failure(event.error));
    else if (event.type === 'mission.cancelled') {
      node.span.setAttribute('sortie.reason', event.reason);
      tree.end(node, timeMs);
    } else tree.end(node, timeMs);
  }

  return { agentOf, onScopeEvent, endMission };
}
