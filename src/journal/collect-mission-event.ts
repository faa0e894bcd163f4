/**
 * Folds one mission's events into its `MissionJournal`: the per-event rules for what a
 * resumed run keeps, including what a failed or retried commander's continuation drops.
 */
import { actorId, parseActorId, type MissionEvent } from '../base/events.ts';
import { applyContextCut } from '../runtime/context-window.ts';
import { entryOf } from '../base/per-object.ts';
import { LOAD_SKILL } from '../tools/skills/load-skill.ts';
import { elicitingCallOf } from '../tools/mcp/mcp-elicitation.ts';
import { toolResultKey, type MissionJournal } from './mission-journal.ts';

/**
 * Adds one event of a mission to what its journal holds. Also fed live, with the events a
 * distributed run's workers relay (actors/resume/relayed-items.ts).
 */
export function collectMissionEvent(journal: MissionJournal, event: MissionEvent): void {
  switch (event.type) {
    case 'message.appended':
      entryOf(journal.conversations, event.conversation, () => []).push(event.message);
      return;
    case 'tool.called':
      if (event.tool === LOAD_SKILL) {
        journal.skillLoads.set(
          toolResultKey(event.actor, event.callId),
          skillNamed(event.arguments),
        );
      }
      return;
    case 'context.compacted': {
      const messages = journal.conversations.get(event.conversation) ?? [];
      journal.conversations.set(event.conversation, applyContextCut(messages, event));
      return;
    }
    case 'tool.completed': {
      collectSkillLoad(journal, event.actor, event.callId, event.isError);
      // Used only for a call a crash left unanswered: a long result's blob stays unread till then.
      const completed = event;
      journal.toolResults.set(toolResultKey(event.actor, event.callId), {
        get content() {
          return completed.result;
        },
        isError: event.isError,
      });
      return;
    }
    case 'human.asked': {
      // A server's question: resume calls its tool again if the call had not finished.
      const asking = elicitingCallOf(event.callId);
      if (asking !== undefined) journal.elicitingCalls.add(toolResultKey(event.actor, asking));
      return;
    }
    case 'human.answered':
      // The person's answer counts even if the crash came before the call's `tool.completed`
      // (which, when journaled, replaces it with the same text); a withdrawn question is asked again.
      if (event.how !== 'cancelled') {
        journal.toolResults.set(toolResultKey(event.actor, event.callId), {
          content: event.answer,
          isError: false,
        });
      }
      return;
    case 'plan.updated':
      journal.plans.set(event.actor, event.subtasks);
      return;
    case 'output.submitted':
      entryOf(journal.outputs, event.actor, () => new Map()).set(event.index, event.output);
      return;
    case 'iteration.started':
      journal.attempts.set(event.actor, event.attempt);
      return;
    case 'iteration.succeeded':
      entryOf(journal.items, event.task, () => new Map()).set(event.index, {
        index: event.index,
        itemId: event.itemId,
        output: event.output,
      });
      return;
    case 'task.failed':
      // A failed commander's conversation is over: a resumed run starts that task afresh.
      forget(journal, actorId.commander(event.task), `agent:${event.task}/`);
      return;
    case 'iteration.failed':
      journal.attempts.delete(event.actor);
      forget(journal, event.actor, `agent:${event.task}[${event.index}]/`);
      return;
    case 'iteration.retrying':
      // Sequential retries name the task's one commander; parallel ones were forgotten above.
      if (event.actor === actorId.commander(event.task)) {
        forget(journal, event.actor, `agent:${event.task}/`);
      }
      return;
    case 'task.succeeded':
      journal.succeededTasks.set(event.task, {
        summary: event.summary,
        output: event.output,
        route: event.route,
      });
      return;
    case 'model.response': {
      // A question fork's turn counts toward the asking task, which its id does not name;
      // it is counted toward the task of the actor asked (the mission total is exact).
      const task = parseActorId(event.actor.split('#')[0] ?? '')?.name;
      if (task !== undefined && task !== '') {
        journal.spending.push({ task, usage: event.usage, costPico: BigInt(event.costPico) });
      }
      return;
    }
    case 'budget.raised':
      journal.budgetRaises.push(event);
      return;
    case 'question.asked': {
      const { task, iteration, question, askedBy } = event;
      entryOf(journal.questions, task, () => []).push({ task, iteration, question, askedBy });
      return;
    }
    case 'question.answered': {
      const asked = journal.questions.get(event.task)?.[event.questionIndex];
      if (asked !== undefined) asked.answer = event.answer;
      return;
    }
    case 'dataset.updated':
      if (event.items !== undefined) {
        journal.datasetWrites.push({
          dataset: event.dataset,
          items: event.items,
          appended: event.appended,
        });
      }
      return;
    default:
      return;
  }
}

/** The skill a `load_skill` call's arguments name, or '' when they name none. */
function skillNamed(argumentsJson: string): string {
  try {
    const name = (JSON.parse(argumentsJson) as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

/** A finished `load_skill` call: an ok result means its skill was loaded. */
function collectSkillLoad(
  journal: MissionJournal,
  actor: string,
  callId: string,
  isError: boolean,
): void {
  const key = toolResultKey(actor, callId);
  const skill = journal.skillLoads.get(key);
  if (skill === undefined) return;
  journal.skillLoads.delete(key);
  if (isError || skill === '') return;
  const loaded = entryOf(journal.loadedSkills, actor, () => []);
  if (!loaded.includes(skill)) loaded.push(skill);
}

/**
 * Drops what an ended commander left for continuing it: its conversation, plan and
 * non-item output, and its agents' conversations. Item outputs stay (a sequential task keeps
 * the outputs its items had accepted).
 */
function forget(journal: MissionJournal, commander: string, agentPrefix: string): void {
  for (const id of [...journal.conversations.keys()]) {
    if (id === commander || id.startsWith(`${commander}#`) || id.startsWith(agentPrefix)) {
      journal.conversations.delete(id);
    }
  }
  for (const id of [...journal.loadedSkills.keys()]) {
    if (id.startsWith(agentPrefix)) journal.loadedSkills.delete(id);
  }
  journal.plans.delete(commander);
  journal.outputs.get(commander)?.delete(null);
}
