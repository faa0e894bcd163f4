/**
 * Runs the real TUI in a terminal for tmux.test.ts: the fixture run on a live bus with a
 * DebugGate that starts paused, then two points held at the gate. Writes what happened
 * (points released, cancel, exit) to the file named by the first argument.
 */
import { appendFileSync } from 'node:fs';
import { DebugGate, gateNoticeEvent } from '../../src/runtime/gate.ts';
import { renderTui } from '../../src/tui/index.ts';
import { emitAnalyzeTask, emitFetchTask, testBus } from './fixture.ts';

const report = process.argv[2] ?? '/dev/null';
const note = (line: string): void => appendFileSync(report, `${line}\n`);

const bus = testBus();
const gate = new DebugGate({
  startPaused: true,
  onNotice: (notice) => bus.emit(gateNoticeEvent(notice)),
});
const handle = renderTui({
  subscribe: (listener) => bus.subscribe(listener),
  gate,
  cancel: () => note('cancelled'),
  title: 'sortie e2e',
});
emitFetchTask(bus);
emitAnalyzeTask(bus);
void gate
  .before({ kind: 'model', actor: 'commander:analyze[7]', detail: 'custom.mystery' })
  .then(() => note('released model'));
void gate
  .before({ kind: 'tool', actor: 'commander:analyze[8]', tool: 'query_task_output', detail: '{}' })
  .then(() => note('released tool'));
await handle.waitUntilExit();
note('exited');
process.exit(0);
