/**
 * File-system failures in words: a Node errno error (a `code` such as ENOSPC and the
 * `syscall` that failed) becomes "cannot write PATH: no space left on the device". Decided
 * from the code, never from Node's message text.
 */

/** A Node file-system error: a string errno `code` and the `syscall` that failed. */
export type FileSystemError = NodeJS.ErrnoException & { code: string; syscall: string };

/** True for an error thrown by a file-system call (it carries `code` and `syscall`). */
export function isFileSystemError(error: unknown): error is FileSystemError {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as NodeJS.ErrnoException;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && typeof syscall === 'string';
}

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'it already exists',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EFBIG: 'the file is too large (a file-size limit was reached)',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many levels of symbolic links',
  EIO: 'input/output error',
  EBUSY: 'the resource is busy',
};

const VERBS: Readonly<Record<string, string>> = {
  mkdir: 'create the folder',
  scandir: 'list the folder',
  opendir: 'list the folder',
  open: 'open',
  read: 'read',
  write: 'write',
  fsync: 'write',
  ftruncate: 'truncate',
  stat: 'inspect',
  lstat: 'inspect',
  unlink: 'remove',
  rmdir: 'remove',
  rename: 'rename',
  copyfile: 'copy',
};

/** Why the call failed, e.g. `no space left on the device` (the code itself when unknown). */
export function fileSystemReason(error: FileSystemError): string {
  // procfs and sysfs answer ENOENT for a folder whose parent exists: they cannot hold it.
  if (error.code === 'ENOENT' && error.syscall === 'mkdir') {
    return 'this file system does not allow creating it';
  }
  return REASONS[error.code] ?? error.code;
}

/**
 * `cannot VERB PATH: REASON`. `path` names the file when the error has none (writes through
 * an open file handle carry no path).
 */
export function describeFileSystemError(error: FileSystemError, path?: string): string {
  const verb = VERBS[error.syscall] ?? error.syscall;
  const subject = error.path ?? path;
  return `cannot ${verb}${subject === undefined ? '' : ` ${subject}`}: ${fileSystemReason(error)}`;
}
