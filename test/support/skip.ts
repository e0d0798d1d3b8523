// The one way a test may skip: when something outside the checkout is missing. Outside CI it
// skips; in CI (CI=true, which .ci/run sets) it fails, naming what is missing and what installs it.

/** Skips `context`'s test, or throws in CI, when `missing` is a reason; `remedy` says what fixes it. */
export function skipUnlessCi(context: Mocha.Context, missing: string, remedy: string): never {
  if (process.env.CI === "true") throw new Error(`${missing}: ${remedy} (CI=true: a missing prerequisite fails the run)`);
  context.skip();
}
