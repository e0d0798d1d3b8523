/**
 * Timeouts for many outstanding requests on one timer. A timer per request costs a setTimeout
 * and a clearTimeout on the hot path; here adding a deadline is a Map insertion. The one timer
 * stays armed for the earliest deadline it has seen: when requests finish it is only unref'd
 * (it must not keep an idle process alive), and when it fires it expires what is due and
 * re-arms for the next deadline. With a uniform timeout, that is about once per period.
 */
export class Deadlines<K> {
  private readonly entries = new Map<K, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private armedFor = Infinity;

  constructor(private readonly expire: (key: K) => void) {}

  add(key: K, timeoutMs: number): void {
    const at = Date.now() + timeoutMs;
    if (this.entries.size === 0) this.timer?.ref();
    this.entries.set(key, at);
    if (at < this.armedFor) this.arm(at);
  }

  delete(key: K): void {
    if (this.entries.delete(key) && this.entries.size === 0) this.timer?.unref();
  }

  clear(): void {
    this.entries.clear();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
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
