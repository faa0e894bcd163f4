/**
 * The actor tree, indexed by actor id. Nodes appear the first time an event names them (or a
 * descendant); the parent follows from the id: mission → task → commander → agent, with the
 * dataset cursor under its task.
 */
import { parseActorId } from '../../base/events.ts';
import type { StateDraft } from './draft.ts';
import type { ActorKind, ActorNode, ActorStatus } from './state.ts';

/** The key under which root nodes are listed in `children`. */
export const ROOT = '';

interface Placement {
  kind: ActorKind;
  label: string;
  parent: string | null;
}

function place(id: string, draft: StateDraft): Placement | null {
  const { currentMission, chatAgent } = draft.state;
  const parsed = parseActorId(id);
  if (parsed === undefined) return { kind: 'other', label: id, parent: null };
  // A chat's mission and task are a frame for its journal: the person talks to the agent.
  if (chatAgent !== null && parsed.kind !== 'run') {
    if (id === chatAgent) return { kind: 'agent', label: parsed.agent ?? id, parent: null };
    if (parsed.kind === 'mission' || parsed.kind === 'task') return null;
  }
  const indexText = parsed.index === null ? '' : `[${parsed.index}]`;
  switch (parsed.kind) {
    case 'run':
      // Run-level facts live in the header, not in the tree.
      return null;
    case 'mission':
      return { kind: 'mission', label: `mission ${parsed.name}`, parent: null };
    case 'task':
      return {
        kind: 'task',
        label: parsed.name,
        parent: currentMission === null ? null : `mission:${currentMission}`,
      };
    case 'commander':
      return { kind: 'commander', label: `commander${indexText}`, parent: `task:${parsed.name}` };
    case 'agent':
      return {
        kind: 'agent',
        label: parsed.agent ?? id,
        parent: `commander:${parsed.name}${indexText}`,
      };
    case 'cursor':
      return { kind: 'cursor', label: 'dataset cursor', parent: `task:${parsed.name}` };
  }
}

/** Makes sure the node (and its ancestors) exist; returns it, or undefined for `run` (and a chat's frame). */
export function ensureActor(draft: StateDraft, id: string): ActorNode | undefined {
  const existing = draft.actor(id);
  if (existing !== undefined) return existing;
  const placement = place(id, draft);
  if (placement === null) return undefined;
  const parent = placement.parent === null ? undefined : ensureActor(draft, placement.parent);
  const node: ActorNode = {
    id,
    kind: placement.kind,
    label: placement.label,
    parent: parent?.id ?? null,
    status: placement.kind === 'task' || placement.kind === 'mission' ? 'pending' : 'running',
    activity: '',
    tokens: 0,
    costPico: 0n,
    unpriced: false,
    iteration: null,
    signals: [],
  };
  draft.setActor(node);
  draft.addChild(node.parent ?? ROOT, id);
  return node;
}

/** Replaces fields of a node, creating it first when needed. */
export function patchActor(draft: StateDraft, id: string, patch: Partial<ActorNode>): void {
  const node = ensureActor(draft, id);
  if (node === undefined) return;
  draft.setActor({ ...node, ...patch });
}

/** Sets a node's status and clears its activity. */
export function finishActor(draft: StateDraft, id: string, status: ActorStatus): void {
  patchActor(draft, id, { status, activity: '' });
}

/** Finishes a node and every still-running node under it with the same status. */
export function finishSubtree(draft: StateDraft, id: string, status: ActorStatus): void {
  finishActor(draft, id, status);
  for (const child of draft.childrenOf(id)) {
    const node = draft.actor(child);
    if (node !== undefined && (node.status === 'running' || node.status === 'pending')) {
      finishSubtree(draft, child, status);
    }
  }
}

/** Adds one turn's spending to the actor and every ancestor. */
export function addSpend(
  draft: StateDraft,
  id: string,
  tokens: number,
  costPico: bigint,
  unpriced: boolean,
): void {
  for (let node = ensureActor(draft, id); node !== undefined;) {
    draft.setActor({
      ...node,
      tokens: node.tokens + tokens,
      costPico: node.costPico + costPico,
      unpriced: node.unpriced || unpriced,
    });
    node = node.parent === null ? undefined : draft.actor(node.parent);
  }
}
