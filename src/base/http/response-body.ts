/**
 * A response body as fetch callers read it, without a web stream: an async iterable of
 * Uint8Array chunks (what the Stainless SDKs' stream readers take when it is offered), a
 * reader with `read()` / `releaseLock()` / `cancel()` (what `@google/genai` uses), `cancel()`,
 * `locked`. A break mid-body errors as fetch's body does (`TypeError('terminated')` with
 * undici's error as cause, or the signal's reason after an abort); leaving an iteration early
 * or cancelling drops the connection, as fetch does. `pipeTo`, `pipeThrough` and `tee` work
 * through a web stream made on demand.
 */
import type { Readable } from 'node:stream';
import { bodyTerminated, TransportUnsupportedError } from './transport-errors.ts';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

function ignore(): void {}

/** Stops a body nobody will read: its connection closes unless the body had ended. */
export function discardStream(source: Readable): void {
  if (source.destroyed) return;
  source.on('error', ignore);
  source.destroy();
}

/**
 * Bodies whose response was dropped unread are cancelled when it is collected, as fetch does,
 * so their connections are not held. A body leaves the registry when its reading starts.
 */
const unread = new FinalizationRegistry<TransportBody>((body) => void body.cancel());

/** Cancels `body` if `owner` is collected before the body is read or cancelled. */
export function cancelWhenDropped(owner: object, body: TransportBody): void {
  unread.register(owner, body, body);
}

/** What a reader or an iterator of the body steps through. */
interface Cursor {
  next(): Promise<IteratorResult<Uint8Array, undefined>>;
  /** Gives the lock back; `cancel` also stops the body. */
  release(cancel: boolean): void;
}

/** A response body read as fetch's callers read it. */
export class TransportBody implements AsyncIterable<Uint8Array> {
  readonly #source: Readable;
  readonly #signal: AbortSignal | null;
  #chunks: AsyncIterator<Uint8Array, undefined> | undefined;
  #locked = false;
  #disturbed = false;

  constructor(source: Readable, signal: AbortSignal | null) {
    this.#source = source;
    this.#signal = signal;
  }

  /** True while an iterator or a reader holds the body. */
  get locked(): boolean {
    return this.#locked;
  }

  /** fetch's "disturbed": reading or cancelling has begun (the response's `bodyUsed`). */
  get disturbed(): boolean {
    return this.#disturbed;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this.values();
  }

  /** The chunks; `preventCancel` leaves the body running when the iteration is left early. */
  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    const cursor = this.#open();
    const preventCancel = options?.preventCancel === true;
    return {
      next: () => cursor.next(),
      return: () => {
        cursor.release(!preventCancel);
        return Promise.resolve(DONE);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** A default reader; a `byob` reader is not offered. */
  getReader(options?: { mode?: string }): TransportBodyReader {
    if (options?.mode !== undefined) {
      throw new TransportUnsupportedError(`a "${options.mode}" reader of a response body`);
    }
    return new TransportBodyReader(this.#open());
  }

  /** Stops the body; its connection closes unless the body had ended. */
  cancel(_reason?: unknown): Promise<void> {
    if (this.#locked) return Promise.reject(new TypeError('the response body is locked'));
    this.#disturb();
    discardStream(this.#source);
    return Promise.resolve();
  }

  pipeTo(destination: WritableStream<Uint8Array>, options?: StreamPipeOptions): Promise<void> {
    return this.#webStream().pipeTo(destination, options);
  }

  pipeThrough<T>(
    transform: { writable: WritableStream<Uint8Array>; readable: ReadableStream<T> },
    options?: StreamPipeOptions,
  ): ReadableStream<T> {
    return this.#webStream().pipeThrough(transform, options);
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.#webStream().tee();
  }

  /** Takes the lock and returns a cursor over the one iterator of the source. */
  #open(): Cursor {
    if (this.#locked) throw new TypeError('the response body is locked');
    this.#locked = true;
    this.#disturb();
    const chunks = (this.#chunks ??= this.#source[Symbol.asyncIterator]());
    let open = true;
    const finish = (): void => {
      open = false;
      this.#locked = false;
    };
    const onStep = (step: IteratorResult<Uint8Array, undefined>) => {
      if (step.done === true) finish();
      return step;
    };
    const onFailure = (error: unknown): never => {
      finish();
      throw bodyTerminated(error, this.#signal);
    };
    return {
      next: () => (open ? chunks.next().then(onStep, onFailure) : Promise.resolve(DONE)),
      release: (cancel) => {
        if (!open) return;
        finish();
        if (cancel) discardStream(this.#source);
      },
    };
  }

  #disturb(): void {
    if (this.#disturbed) return;
    this.#disturbed = true;
    unread.unregister(this);
  }

  #webStream(): ReadableStream<Uint8Array> {
    const chunks = this.values();
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const step = await chunks.next();
        if (step.done === true) controller.close();
        else controller.enqueue(step.value);
      },
      cancel: async () => void (await chunks.return?.()),
    });
  }
}

/** A default reader of a TransportBody, as `body.getReader()` gives it. */
export class TransportBodyReader {
  readonly #cursor: Cursor;
  #released = false;

  constructor(cursor: Cursor) {
    this.#cursor = cursor;
  }

  read(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#released) return Promise.reject(new TypeError('the reader has been released'));
    return this.#cursor.next();
  }

  releaseLock(): void {
    if (this.#released) return;
    this.#released = true;
    this.#cursor.release(false);
  }

  cancel(_reason?: unknown): Promise<void> {
    if (this.#released) return Promise.reject(new TypeError('the reader has been released'));
    this.#released = true;
    this.#cursor.release(true);
    return Promise.resolve();
  }

  /** Not offered (nothing sortie uses waits on it): throws rather than never settling. */
  get closed(): never {
    throw new TransportUnsupportedError("a body reader's `closed` promise");
  }
}
