/**
 * A full garbage collection on demand, without starting node with --expose-gc: benches collect
 * between runs, so that one run's (or one engine's) garbage is not collected in the next one's time.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
export const collectGarbage = runInNewContext("gc") as () => void;
