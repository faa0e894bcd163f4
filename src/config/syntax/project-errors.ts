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
    super(PROBLEM_MESSAGES[problem](path), options);
  }
}

const PROBLEM_MESSAGES: Readonly<Record<ProjectProblem, (path: string) => string>> = {
  missing: (path) => `no such file or directory: ${path}`,
  unreadable: (path) => `cannot read ${path}: permission denied or not a regular file or directory`,
  'not-hcl': (path) => `not an .hcl file: ${path}`,
  empty: (path) => `no .hcl files in ${path}`,
};
