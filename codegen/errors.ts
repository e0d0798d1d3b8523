/**
 * A generation failure, always located: the revision whose schema is at fault and the JSON
 * Pointer (URI fragment form, `#/$defs/Tool/properties/name`) of the offending node.
 */
export class GenerationError extends Error {
  constructor(
    readonly revision: string,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${revision} ${pointer}: ${reason}`);
    this.name = "GenerationError";
  }
}
