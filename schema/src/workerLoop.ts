/**
 * The background loop of a durable outbox's drainer (the webhook engine and the mail sender): run one pass while
 * passes find work, otherwise sleep until the next row is due (at most the poll interval) or until woken (a write of
 * this process committed). Written by hand: it is twenty lines of control flow around the caller's own pass and
 * query, which no queue library offers without taking over the outbox itself.
 */
import { toDate } from './records/index.js';

export interface WorkerLoopOptions {
  /** One pass; true when there may be more to do at once. */
  tick: () => Promise<boolean>;
  /** The earliest next_attempt_at of the outbox's waiting rows (null: none). */
  nextDue: () => Promise<unknown>;
  pollMs: number;
  /** Where errors of a pass are reported (`where` names the loop). */
  log: (error: unknown, where: string) => void;
  name: string;
}

export class WorkerLoop {
  private running = false;
  private done: Promise<void> = Promise.resolve();
  private wakeRequested = false;
  private wakeSleeper: (() => void) | null = null;

  constructor(private readonly options: WorkerLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.done = this.run();
  }

  /** Stops after the pass in flight. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.done;
  }

  /** Look at the outbox now. */
  wake(): void {
    this.wakeRequested = true;
    this.wakeSleeper?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.wakeRequested = false;
      let busy = false;
      try {
        busy = await this.options.tick();
      } catch (error) {
        this.options.log(error, this.options.name);
      }
      if (!this.running) break;
      if (busy || this.wakeRequested) continue;
      const wait = await this.idleWait().catch(() => this.options.pollMs);
      if (this.wakeRequested || !this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wakeSleeper = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeSleeper = null;
    }
  }

  /** How long to sleep when idle: until the next scheduled attempt, at most pollMs, at least 10 ms. */
  private async idleWait(): Promise<number> {
    const next = await this.options.nextDue();
    if (next == null) return this.options.pollMs;
    return Math.min(this.options.pollMs, Math.max(10, toDate(next).getTime() - Date.now()));
  }
}
