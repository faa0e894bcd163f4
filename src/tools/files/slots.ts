import { basename, dirname } from 'node:path';
import { statSync } from 'node:fs';

/** One place an agent can reach with the file tools. */
export interface Slot {
  /**
   * The name models pass as `slot`: `memory`, `scratchpad`, a shared label, `input.NAME`,
   * `packet.NAME`.
   */
  label: string;
  /** Host directory the slot's paths are relative to. Never shown to models. */
  root: string;
  readOnly: boolean;
  /** Why the slot is read-only, told to a model that tries to write (packets). */
  readOnlyReason?: string;
  /** Only text files are read (packets): binary files are refused, `file_view` too. */
  textOnly?: boolean;
  /**
   * For a file input: the one file the slot exposes, by its base name. The slot then looks
   * like a folder holding only that file; nothing else in `root` is reachable.
   */
  onlyFile?: string;
}

/** Where a mission's slots live on disk. Absent memory/scratchpad means no such slot. */
export interface SlotSources {
  memory?: string;
  scratchpad?: string;
  /** Shared memories by label. */
  shared?: Record<string, string>;
  /** File inputs by input name; exposed read-only as `input.NAME`. */
  inputs?: Record<string, { path: string }>;
  /** Packet folders by packet name; exposed read-only, text only, as `packet.NAME`. */
  packets?: Record<string, string>;
}

/** Why a packet slot refuses writes. */
export const PACKET_READ_ONLY_REASON = 'a packet holds reference files that cannot be changed';

/** The slots of one mission run, in a fixed order: memory, scratchpad, shared, inputs, packets. */
export class SlotSet {
  readonly slots: readonly Slot[];

  constructor(sources: SlotSources) {
    const slots: Slot[] = [];
    if (sources.memory !== undefined) {
      slots.push({ label: 'memory', root: sources.memory, readOnly: false });
    }
    if (sources.scratchpad !== undefined) {
      slots.push({ label: 'scratchpad', root: sources.scratchpad, readOnly: false });
    }
    for (const [label, root] of Object.entries(sources.shared ?? {})) {
      slots.push({ label, root, readOnly: false });
    }
    for (const [name, input] of Object.entries(sources.inputs ?? {})) {
      slots.push(inputSlot(name, input.path));
    }
    for (const [name, root] of Object.entries(sources.packets ?? {})) {
      slots.push({
        label: `packet.${name}`,
        root,
        readOnly: true,
        readOnlyReason: PACKET_READ_ONLY_REASON,
        textOnly: true,
      });
    }
    this.slots = slots;
  }

  /** The slot with this label, if any. */
  find(label: string): Slot | undefined {
    return this.slots.find((slot) => slot.label === label);
  }

  /** Every label, in order. */
  labels(): string[] {
    return this.slots.map((slot) => slot.label);
  }

  get isEmpty(): boolean {
    return this.slots.length === 0;
  }
}

/** A file input is usually one file; a directory input is exposed whole (still read-only). */
function inputSlot(name: string, path: string): Slot {
  const label = `input.${name}`;
  if (isDirectory(path)) return { label, root: path, readOnly: true };
  return { label, root: dirname(path), readOnly: true, onlyFile: basename(path) };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
