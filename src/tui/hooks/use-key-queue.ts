/**
 * Keys handled one at a time, each with the state the keys before it left. Several keys can
 * reach the app before React has rendered what the first one did (one read holds several, or
 * Ink calls `useInput` for each escape sequence of a read in a row); handled right away, the
 * later ones would act on the screen as it was before the first (a move on rows a collapse has
 * hidden, a `k` for the tree after `3` opened the Events tab). So keys wait in a queue, and the
 * next one is taken only once the previous one's updates have been committed.
 */
import { useInput } from 'ink';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { keyPresses, type KeyPress } from '../key-presses.ts';

/**
 * Calls `handle` for every key in order, with `targets` as rendered after the previous key.
 * `handle` takes the key off the front of `queue`, and may take the keys after it too (typed
 * text goes into a line as one string).
 */
export function useKeyQueue<Targets>(
  targets: Targets,
  handle: (queue: KeyPress[], targets: Targets) => void,
): void {
  const latest = useRef({ targets, handle });
  const queue = useRef<KeyPress[]>([]);
  const draining = useRef(false);
  // Bumped after each key: its commit is when the next key may go.
  const [handled, setHandled] = useState(0);
  useLayoutEffect(() => {
    latest.current = { targets, handle };
  });
  const next = useCallback(() => {
    if (queue.current.length === 0) {
      draining.current = false;
      return;
    }
    try {
      latest.current.handle(queue.current, latest.current.targets);
    } finally {
      setHandled((count) => count + 1);
    }
  }, []);
  useLayoutEffect(() => {
    // A microtask, not this effect: an update made inside a commit's effects would count
    // towards React's limit on nested updates, which a long paste would reach.
    if (draining.current) queueMicrotask(next);
  }, [handled, next]);
  const onInput = useCallback(
    (input: string, key: KeyPress['key']) => {
      queue.current.push(...keyPresses(input, key));
      if (draining.current) return;
      draining.current = true;
      queueMicrotask(next);
    },
    [next],
  );
  useInput(onInput);
}
