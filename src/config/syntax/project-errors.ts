import { SortieError } from '../../base/errors.ts';

/** Why a project could not be found: the path is missing or unreadable, or holds no `.hcl` file. */
export type ProjectProblem = 'missing' | 'unreadable' | 'not-hcl' | 'empty';

/** The project path given on the command line or to the API cannot be loaded. */
export class ProjectNotFoundError extends SortieError {
  constructor(
    /** The path as the caller gave it. */
    readonly path: string,
    readonly problem: ProjectProblem,
    options?: { cause?: unknown },
  ) {
    super(projectMessage(path, problem), options);
  }
}

function projectMessage(path: string, problem: ProjectProblem): string {
  switch (problem) {
    case 'missing':
      return `no such file or directory: ${path}`;
    case 'unreadable':
      return `cannot read ${path}: permission denied or not a regular file or directory`;
    case 'not-hcl':
      return `not an .hcl file: ${path}`;
    case 'empty':
      return `no .hcl files in ${path}`;
  }
}
