/**
 * Text from the other side of the wire as a log line or a header may carry it: control
 * characters (CR, LF, BEL, DEL...) become spaces, so that it can neither end the line nor forge
 * another (a log's next entry, a header's next field).
 */
export function printable(text: string): string {
  return text.replace(/[\x00-\x1f\x7f]/g, " ");
}
