/** `bytes` characters of base64 text, the same for both bench servers. */
export function payload(bytes: number): string;
