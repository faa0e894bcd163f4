/**
 * Starts that go one after another in the order they were asked for. The iteration machine
 * starts a whole batch of tries in one action; each try's commander must start after that
 * transition, and each after the one before has handed over its first model request, so a
 * batch's requests go out one by one from the start instead of all after the last commander is
 * built. One line per mission run: runs in the same process never wait on each other.
 */
export class StartLine {
  private last: Promise<void> = Promise.resolve();

  /** A place in the line: `ready` once every earlier place is `done`; call `done` once started. */
  take(): { ready: Promise<void>; done: () => void } {
    const ready = this.last;
    let done = (): void => undefined;
    this.last = new Promise<void>((resolve) => (done = resolve));
    return { ready, done };
  }
}
