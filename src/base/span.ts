/**
 * Where something was written in a project's files. Lines and columns are 1-based; columns
 * count UTF-16 code units like editors do; `end` is exclusive.
 */

export interface Position {
  line: number;
  column: number;
  /** 0-based offset into the file's text. */
  offset: number;
}

export interface Span {
  /** Path relative to the project root, with `/` separators. */
  file: string;
  start: Position;
  end: Position;
}
