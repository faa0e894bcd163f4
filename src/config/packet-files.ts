import type { Diagnostic } from '../base/errors.ts';
import type { SourceFile } from './ast.ts';
import type { FolderResult } from './syntax/project-folder.ts';
import { literalText } from './values.ts';

/** Parsed files and their syntax diagnostics. */
export interface ParsedFiles {
  files: SourceFile[];
  diagnostics: Diagnostic[];
}

/**
 * Leaves out the `.hcl` files inside packet folders, with their syntax diagnostics: a packet is
 * reference data for agents, not configuration (as in the reference runtime). A packet declared
 * in a file inside another packet's folder is left out with that file. Only literal `path`s are
 * followed; a packet whose path is wrong is reported when it is decoded.
 */
export function withoutPacketFiles(
  parsed: ParsedFiles,
  resolveFolder: (fromFile: string, requested: string) => FolderResult,
): ParsedFiles {
  const candidates = parsed.files.flatMap((file) =>
    file.body.blocks.flatMap((block) => {
      const path = block.body.attributes.find((attribute) => attribute.name === 'path');
      const requested = path && literalText(path.value);
      if (block.type !== 'packet' || requested === undefined) return [];
      const folder = resolveFolder(file.path, requested);
      return folder.ok ? [{ file: file.path, folder: folder.relativePath }] : [];
    }),
  );
  const folders = candidates
    .filter((candidate) =>
      candidates.every((other) => other === candidate || !isInside(other.folder, candidate.file)),
    )
    .map((candidate) => candidate.folder);
  if (folders.length === 0) return parsed;
  const excluded = (file: string): boolean => folders.some((folder) => isInside(folder, file));
  return {
    files: parsed.files.filter((file) => !excluded(file.path)),
    diagnostics: parsed.diagnostics.filter((diagnostic) => !excluded(diagnostic.file)),
  };
}

function isInside(folder: string, file: string): boolean {
  return file.startsWith(`${folder}/`);
}
