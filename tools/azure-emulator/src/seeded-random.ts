/**
 * A reproducible stand-in for Math.random (mulberry32): the end-to-end suites fix the edge's weighted origin choice
 * with it, so a split measured through the edge is the same run after run, and the `azure` operation timings draw
 * their jitter from it, so a benchmark run with one seed is the same run after run.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
