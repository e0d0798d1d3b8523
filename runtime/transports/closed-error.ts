/** Why a `send` was refused: the transport is closed, by `close()` or because the other side went away. */
export class TransportClosedError extends Error {
  override readonly name = "TransportClosedError";

  constructor(message = "the transport is closed") {
    super(message);
  }
}
