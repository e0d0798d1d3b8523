import type { FrameProblem, Receiver } from "../../../runtime/jsonrpc/transport.js";

/** A Receiver that writes down everything it is told, for assertions. */
export class RecordingReceiver implements Receiver {
  readonly messages: unknown[] = [];
  readonly problems: FrameProblem[] = [];
  readonly closings: (Error | undefined)[] = [];
  private waiters: (() => void)[] = [];

  message(value: unknown): void {
    this.messages.push(value);
    this.wake();
  }

  malformed(problem: FrameProblem): void {
    this.problems.push(problem);
    this.wake();
  }

  closed(error?: Error): void {
    this.closings.push(error);
    this.wake();
  }

  /** Resolves once `condition` holds; rejects after `ms` so a broken transport fails the test, not hangs it. */
  until(condition: () => boolean, ms = 10_000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`condition not met within ${ms} ms`)), ms);
      const check = () => {
        if (!condition()) return void this.waiters.push(check);
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}
