import { encodeEvent } from '../journal/writer.ts';
import { isJournaled, type MissionEvent } from '../base/events.ts';

/**
 * `--json`: one event per line, encoded exactly as the journal writes it (every event but the
 * display-only deltas), so `sortie run --json` and `journal.jsonl` are read by one parser.
 */
export function createJsonPrinter(write: (text: string) => void): (event: MissionEvent) => void {
  return (event) => {
    if (isJournaled(event)) write(encodeEvent(event));
  };
}
