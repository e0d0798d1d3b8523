/**
 * Where the closures' runs get their templates in tests (runtime/json-schema/render/closures.ts,
 * `Templates`), so that a test does not depend on how much of the process's pool the tests before
 * it took: a template for every run that fits one, cycling through the pool (a template's verdicts
 * do not depend on whose it was before), or none.
 */
import type { Templates } from "../../runtime/json-schema/render/closures.js";
import { CHECK_ITEMS_POOL, CHECK_POOL, CHECK_GATED_POOL, ENTRY_POOL, ITEMS_POOL, POOL, GATED_POOL } from "../../runtime/json-schema/render/pool.js";

/** How many of each kind EVERY_RUN has handed out. */
export const handedOut = { is: 0, check: 0, items: 0, checkItems: 0, gated: 0, checkGated: 0, entry: 0 };

export const EVERY_RUN: Templates = {
  is: () => POOL[handedOut.is++ % POOL.length],
  check: () => CHECK_POOL[handedOut.check++ % CHECK_POOL.length],
  items: () => ITEMS_POOL[handedOut.items++ % ITEMS_POOL.length],
  checkItems: () => CHECK_ITEMS_POOL[handedOut.checkItems++ % CHECK_ITEMS_POOL.length],
  gated: () => GATED_POOL[handedOut.gated++ % GATED_POOL.length],
  checkGated: () => CHECK_GATED_POOL[handedOut.checkGated++ % CHECK_GATED_POOL.length],
  entry: () => ENTRY_POOL[handedOut.entry++ % ENTRY_POOL.length],
};

export const NO_RUN: Templates = { is: () => undefined, check: () => undefined, items: () => undefined, checkItems: () => undefined, gated: () => undefined, checkGated: () => undefined, entry: () => undefined };
