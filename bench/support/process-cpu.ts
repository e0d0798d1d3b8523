/**
 * CPU time another process has used so far, all its threads, from Linux's
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU); NaN elsewhere or once it is gone.
 * Steadier than wall time on a machine shared with other work: waiting for a core does not count.
 */
import { readdirSync, readFileSync } from "node:fs";

export function processCpuMs(pid: number | undefined): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}
