// The kill schedule: one point per kill, drawn from a seed so that a run can be repeated
// (`--seed N`). Every row is killed at the same points.
//
// A point is "after the `after`-th tool body of this life has started, wait `delayMs`, then
// SIGKILL" (`after: 0` counts from the moment the life starts its run, so the kill can land
// in a resume). The delay spans a body (2 ms on the wire, the effect, 2 ms back), the commit
// and the next model step, so the kill lands anywhere in a call's life. `after` is 0..6: 20
// lives of rein or LangGraph get through about 60 of the 100 calls, and a last life that is
// not killed finishes the run.

/** A small seeded PRNG (mulberry32): uniform floats in [0, 1). */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** `kills` kill points from `seed`. */
export function killPlan(seed, kills) {
  const next = random(seed)
  return Array.from({ length: kills }, () => ({ after: Math.floor(next() * 7), delayMs: Math.round(next() * 120) / 10 }))
}
