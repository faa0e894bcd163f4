import { afterEach, describe, expect, it } from 'vitest';
import { call, cleanUp, eventsOf, plainTask, runEngine, sentMessages } from './engine-harness.ts';

afterEach(cleanUp);

const COMMANDER = `commander {
    model = MODEL
  }`;

describe('scheduling and routing through startRun', () => {
  it('runs parallel branches together and gives the join their summaries in topological order', async () => {
    const hcl = `
mission "dag" {
  ${COMMANDER}
  task "left" {
    objective = "Left"
  }
  task "right" {
    objective = "Right"
  }
  task "join" {
    objective = "Join"
    depends_on = [tasks.left, tasks.right]
  }
}`;
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'dag',
      turns: [
        ...plainTask('left', null, 'Left is done'),
        ...plainTask('right', null, 'Right is done'),
        ...plainTask('join', null, 'Joined'),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    const lifecycle = events
      .filter((event) => event.type === 'task.started' || event.type === 'task.succeeded')
      .map((event) => `${event.type} ${'task' in event ? event.task : ''}`);
    expect(lifecycle.slice(0, 2)).toEqual(['task.started left', 'task.started right']);
    expect(lifecycle.slice(-2)).toEqual(['task.started join', 'task.succeeded join']);
    const joinRequest = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'commander:join',
    );
    expect(joinRequest?.system).toContain(
      '## Completed dependencies\n- left: Left is done\n- right: Right is done\n',
    );
    expect(joinRequest?.tools?.map((tool) => tool.name)).toEqual([
      'set_subtasks',
      'get_subtasks',
      'complete_subtask',
      'query_task_output',
      'ask_commander',
      'list_commander_questions',
      'get_commander_answer',
      'task_complete',
    ]);
  });

  const ROUTER = `
mission "route" {
  ${COMMANDER}
  task "decide" {
    objective = "Decide"
    router {
      route {
        target = tasks.publish
        condition = "Good"
      }
      route {
        target = tasks.follow_up
        condition = "Gaps"
      }
    }
  }
  task "publish" {
    objective = "Publish"
  }
  task "follow_up" {
    objective = "Follow up"
  }
}`;

  it('a router activates the chosen route and skips the other', async () => {
    const { result, events, server } = await runEngine({
      hcl: ROUTER,
      mission: 'route',
      turns: [
        call('commander:decide', 'set_subtasks', { subtasks: ['Judge'] }),
        call('commander:decide', 'complete_subtask'),
        call('commander:decide', 'task_complete', { summary: 'Good enough', route: 'publish' }),
        ...plainTask('publish', null, 'Published'),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((task) => `${task.name}:${task.status}`)).toEqual([
      'decide:succeeded',
      'publish:succeeded',
      'follow_up:skipped',
    ]);
    expect(eventsOf(events, 'route.chosen')).toMatchObject([
      {
        task: 'decide',
        via: 'router',
        route: 'publish',
        targets: [{ kind: 'task', name: 'publish', activated: true }],
      },
    ]);
    expect(eventsOf(events, 'task.skipped')).toMatchObject([
      { task: 'follow_up', reason: 'not_activated' },
    ]);
    const publish = eventsOf(events, 'task.started').find((event) => event.task === 'publish');
    expect(publish?.activatedBy).toBe('decide');
    const system = eventsOf(events, 'model.request').find(
      (event) => event.actor === 'commander:decide',
    )?.system;
    expect(system).toContain(
      "## Routes\nChoose the route whose condition holds and pass its key as task_complete's route:\n- publish: Good\n- follow_up: Gaps\n- none: no condition holds.",
    );
  });

  it('route none activates nothing and the mission succeeds', async () => {
    const { result, events } = await runEngine({
      hcl: ROUTER,
      mission: 'route',
      turns: [
        call('commander:decide', 'set_subtasks', { subtasks: ['Judge'] }),
        call('commander:decide', 'complete_subtask'),
        call('commander:decide', 'task_complete', { summary: 'Nothing to do', route: 'none' }),
      ],
    });
    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((task) => task.status)).toEqual(['succeeded', 'skipped', 'skipped']);
    expect(eventsOf(events, 'route.chosen')).toMatchObject([{ route: null, targets: [] }]);
  });

  it('send_to activates every target; a later activation of the same target loses', async () => {
    const hcl = `
mission "fan" {
  ${COMMANDER}
  task "source" {
    objective = "Split"
    send_to = [tasks.one, tasks.two]
  }
  task "one" {
    objective = "One"
    send_to = [tasks.two]
  }
  task "two" {
    objective = "Two"
  }
}`;
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'fan',
      turns: [
        ...plainTask('source', null, 'Split done'),
        ...plainTask('one', null, 'One done'),
        ...plainTask('two', null, 'Two done'),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    const routes = eventsOf(events, 'route.chosen').map((event) => ({
      task: event.task,
      targets: event.targets,
    }));
    expect(routes).toContainEqual({
      task: 'source',
      targets: [
        { kind: 'task', name: 'one', activated: true },
        { kind: 'task', name: 'two', activated: true },
      ],
    });
    expect(routes).toContainEqual({
      task: 'one',
      targets: [
        { kind: 'task', name: 'two', activated: false, reason: expect.stringMatching(/^already_/) },
      ],
    });
  });

  it('a mission route chains the next mission with validated mission_inputs', async () => {
    const hcl = `
mission "first" {
  ${COMMANDER}
  task "pick" {
    objective = "Pick"
    router {
      route {
        target = missions.second
        condition = "Always"
      }
    }
  }
}
mission "second" {
  ${COMMANDER}
  inputs = {
    topic = string("The topic", true)
    depth = integer("How deep", { default = 2 })
    token = string("Access token", { protected = true, default = "" })
  }
  task "dig" {
    objective = "Dig into \${inputs.topic} at depth \${inputs.depth}"
  }
}`;
    const { result, events, server } = await runEngine({
      hcl,
      mission: 'first',
      turns: [
        call('commander:pick', 'set_subtasks', { subtasks: ['Pick'] }),
        call('commander:pick', 'complete_subtask'),
        call('commander:pick', 'task_complete', {
          summary: 'Go on',
          route: 'second',
          mission_inputs: { topic: 'tides', token: 'sekrit-123' },
        }),
        ...plainTask('dig', null, 'Dug'),
      ],
    });
    server.assertDone();
    expect(result.status).toBe('succeeded');
    expect(result.missions).toEqual([
      { name: 'first', status: 'succeeded' },
      { name: 'second', status: 'succeeded' },
    ]);
    expect(eventsOf(events, 'mission.started')).toMatchObject([
      { mission: 'first', chainedFrom: null },
      {
        mission: 'second',
        chainedFrom: 'first',
        inputs: { topic: 'tides', depth: 2, token: '••••' },
      },
    ]);
    const fromSecond = events.slice(
      events.findIndex((event) => event.type === 'mission.started' && event.mission === 'second'),
    );
    expect(JSON.stringify(fromSecond)).not.toContain('sekrit-123');
    const dig = eventsOf(events, 'model.request').find((event) => event.actor === 'commander:dig');
    expect(sentMessages(events, dig!)[0]).toEqual({
      role: 'user',
      parts: [{ type: 'text', text: 'Dig into tides at depth 2' }],
    });
  });

  it('with chain = false the mission route is not followed', async () => {
    const hcl = `
mission "first" {
  ${COMMANDER}
  task "pick" {
    objective = "Pick"
    router {
      route {
        target = missions.second
        condition = "Always"
      }
    }
  }
}
mission "second" {
  ${COMMANDER}
  task "dig" {
    objective = "Dig"
  }
}`;
    const { result, events } = await runEngine({
      hcl,
      mission: 'first',
      options: { chain: false },
      turns: [
        call('commander:pick', 'set_subtasks', { subtasks: ['Pick'] }),
        call('commander:pick', 'complete_subtask'),
        call('commander:pick', 'task_complete', {
          summary: 'Go on',
          route: 'second',
          mission_inputs: {},
        }),
      ],
    });
    expect(result.missions).toEqual([{ name: 'first', status: 'succeeded' }]);
    expect(eventsOf(events, 'route.chosen')[0]?.targets).toEqual([
      { kind: 'mission', name: 'second', activated: false, reason: 'chaining_disabled' },
    ]);
  });
});
