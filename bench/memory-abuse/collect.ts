// What both servers of bench/memory-abuse.ts (ours, server.ts; SDK v2's, v2-server.ts) do when told
// to collect: a full collection (the process runs with --expose-gc), then the line the bench reads.
export function collector(say: (line: string) => void): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  return () => {
    gc?.();
    const { heapUsed, external } = process.memoryUsage();
    say(`collected heap ${heapUsed} external ${external}`);
  };
}
