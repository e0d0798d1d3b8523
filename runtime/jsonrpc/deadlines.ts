/**
 * Timeouts for many outstanding requests on one timer. A timer per request costs a setTimeout
 * and a clearTimeout on the hot path; here adding a deadline is a Map insertion, and the one
 * timer is armed for the earliest deadline only. When it fires, expired entries are expired and
 * the timer re-armed: with a uniform timeout, that happens about once per timeout period.
 */
export class Deadlines<K> {
  private readonly entries = new Map<K, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Infinity;

  constructor(private readonly expire: (key: K) => void) {}

  add(key: K, timeoutMs: number): void {
    const at = Date.now() + timeoutMs;
    this.entries.set(key, at);
    if (at < this.armedFor) this.arm(at);
  }

  delete(key: K): void {
    this.entries.delete(key);
    if (this.entries.size === 0) this.disarm();
  }

  clear(): void {
    this.entries.clear();
    this.disarm();
  }

  private arm(at: number): void {
    this.disarm();
    this.armedFor = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    const expired: K[] = [];
    let next = Infinity;
    for (const [key, at] of this.entries) {
      if (at <= now) expired.push(key);
      else if (at < next) next = at;
    }
    for (const key of expired) this.entries.delete(key);
    if (next < Infinity) this.arm(next);
    for (const key of expired) this.expire(key);
  }
}
