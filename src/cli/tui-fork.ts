/**
 * Forking from the TUI (`f`, `e`): the TUI's forker keeps the run's events, checks the seq
 * under the cursor and runs `e`'s edit with the code of `sortie fork --edit` (same document,
 * same validation, same wording); once a fork is chosen the TUI quits and the command runs
 * the fork as `sortie fork` does, in a TUI of its own.
 */
import { UsageError } from '../base/errors.ts';
import type { MissionEvent } from '../base/events.ts';
import type { Config } from '../config/config-types.ts';
import { forkPointAt, type ForkPoint } from '../journal/fork-journal.ts';
import { editDocument, editFileName, readEditedPoint } from '../run/fork-edit.ts';
import type { Suspend, TuiForker } from '../tui/index.ts';
import { editText } from './editor.ts';
import type { CliIo } from './io.ts';
import type { RunEnvironment } from './run-command.ts';
import type { RunFlags } from './run.ts';

/** The fork the person chose in the TUI. */
export interface ChosenFork {
  seq: number;
  /** The point as edited with `e`; undefined: as it was. */
  edited: ForkPoint | undefined;
}

/** The TUI's forker of one run: fed the run's events, it remembers the fork chosen. */
export class TuiForks implements TuiForker {
  /** The run's events but streamed text (forkPointAt names the nearest points from them). */
  private readonly events: MissionEvent[] = [];
  private picked: ChosenFork | undefined;

  /** `loadConfig`: the project, for checking an edited mission start's inputs. */
  constructor(
    private readonly loadConfig: () => Promise<Config>,
    private readonly env: Record<string, string | undefined>,
  ) {}

  /** Subscribes to the run's events. */
  readonly record = (event: MissionEvent): void => {
    if (event.type !== 'model.delta') this.events.push(event);
  };

  /** The fork chosen before the TUI quit, if any. */
  get chosen(): ChosenFork | undefined {
    return this.picked;
  }

  async prepare(seq: number, edit: boolean, suspend: Suspend): Promise<string | null> {
    try {
      const point = forkPointAt(this.events, seq, this.events[0]?.runId ?? '');
      let edited: ForkPoint | undefined;
      if (edit) {
        const config = await this.loadConfig();
        const text = suspend(() => editText(editDocument(point), editFileName(point), this.env));
        edited = readEditedPoint(point, text, config);
      }
      this.picked = { seq, edited };
      return null;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return error.hint === undefined ? error.message : `${error.message}; ${error.hint}`;
    }
  }
}

/** The run a fork from the TUI starts from, and the flags it ran with. */
export interface ForkParent {
  runId: string;
  /** Its project (directory or .hcl file). */
  project: string;
  /** Its flags; the fork keeps them but `--record` (that would overwrite the parent's cassette). */
  flags: RunFlags;
}

/** Runs the chosen fork as `sortie fork` does (shown in the TUI again); returns its exit code. */
export async function forkFromTui(
  chosen: ChosenFork,
  parent: ForkParent,
  io: CliIo,
  environment: RunEnvironment,
): Promise<number> {
  const { record: _notAgain, ...flags } = parent.flags;
  const { forkCommand } = await import('./fork-command.ts');
  return forkCommand(
    {
      runId: parent.runId,
      directory: parent.project,
      flags: { ...flags, at: String(chosen.seq), edit: false },
    },
    io,
    environment,
    chosen.edited,
  );
}
