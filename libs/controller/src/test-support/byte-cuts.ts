/**
 * `bytes` cut at the given offsets (each taken modulo length + 1, duplicates dropped), for property tests of a reader
 * that must give the same result however its input is split across reads.
 */
export function cutAt(bytes: Buffer, offsets: number[]): Buffer[] {
  const cuts = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...cuts].map((from, i) => bytes.subarray(from, cuts[i] ?? bytes.length)).filter((c) => c.length > 0);
}
