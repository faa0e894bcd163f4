/**
 * CPU time of several processes over a span of wall-clock time: each process's user + system
 * time is sampled every `intervalMs`, and the CPU used between two instants is interpolated
 * from the samples around them (so a span read afterwards from a journal's timestamps can be
 * measured, and a process that has exited by then still counts).
 */

/** A process's cumulative CPU milliseconds now (NaN once it is gone). */
export type CpuReading = () => number;

type Sample = [wallMs: number, cpuMs: number];

/** Samples the CPU of named processes until stopped. */
export class CpuSampler {
  private readonly samples = new Map<string, Sample[]>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly readings: ReadonlyMap<string, CpuReading>,
    intervalMs = 100,
  ) {
    for (const name of readings.keys()) this.samples.set(name, []);
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  /** CPU milliseconds `name` used between the two instants (Date.now() values). */
  between(name: string, fromMs: number, toMs: number): number {
    const samples = this.samples.get(name) ?? [];
    return cpuAt(samples, toMs) - cpuAt(samples, fromMs);
  }

  private sample(): void {
    const now = Date.now();
    for (const [name, reading] of this.readings) {
      const cpu = reading();
      if (Number.isFinite(cpu)) this.samples.get(name)?.push([now, cpu]);
    }
  }
}

/** The cumulative CPU at `atMs`, linear between the samples around it. */
function cpuAt(samples: readonly Sample[], atMs: number): number {
  const after = samples.findIndex(([wall]) => wall >= atMs);
  if (after === -1) return samples.at(-1)?.[1] ?? NaN;
  const [afterWall, afterCpu] = samples[after] as Sample;
  const before = samples[after - 1];
  if (before === undefined) return afterCpu;
  const [beforeWall, beforeCpu] = before;
  if (afterWall === beforeWall) return afterCpu;
  return beforeCpu + ((afterCpu - beforeCpu) * (atMs - beforeWall)) / (afterWall - beforeWall);
}
