/** The current time, ticking once a second while `running`. */
import { useEffect, useState } from 'react';

/** `now()` re-read every second while running; frozen otherwise. */
export function useClock(running: boolean, now: () => number): number {
  const [time, setTime] = useState(now);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTime(now()), 1000);
    return () => clearInterval(timer);
  }, [running, now]);
  return time;
}
