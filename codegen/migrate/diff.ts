/**
 * A unified diff (`diff -u`, three lines of context) of two texts, for `migrate --dry-run`: the
 * lines in common found by a longest common subsequence, which is plenty for source files.
 */
export function unifiedDiff(name: string, before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: { kind: " " | "-" | "+"; line: string; ai: number; bi: number }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ kind: " ", line: a[i]!, ai: i++, bi: j++ });
    // On a tie the removed line first, then the added one, as diff -u prints a changed line.
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: "-", line: a[i]!, ai: i++, bi: j });
    else ops.push({ kind: "+", line: b[j]!, ai: i, bi: j++ });
  }
  const CONTEXT = 3;
  const out = [`--- a/${name}`, `+++ b/${name}`];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.kind === " ") {
      k++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change within reach.
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    for (let m = k; m < ops.length; m++) {
      if (ops[m]!.kind !== " ") end = m;
      else if (m - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    const aStart = hunk[0]!.ai + (aCount > 0 ? 1 : 0);
    const bStart = hunk[0]!.bi + (bCount > 0 ? 1 : 0);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of hunk) {
      out.push(`${op.kind}${op.line}`);
      // A last line without its newline, as diff marks it.
      const lastOfA = op.kind !== "+" && op.ai === a.length - 1 && !before.endsWith("\n");
      const lastOfB = op.kind !== "-" && op.bi === b.length - 1 && !after.endsWith("\n");
      if (lastOfA || lastOfB) out.push("\\ No newline at end of file");
    }
    k = stop;
  }
  return `${out.join("\n")}\n`;
}

/** A text's lines, without the empty one after its final newline. */
function lines(text: string): string[] {
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  return all;
}
