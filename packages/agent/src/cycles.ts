/**
 * Strongly connected components of a directed graph (Tarjan's algorithm, iterative so that a
 * batch of ten thousand calls cannot overflow the stack). Linear in nodes plus edges.
 */

/**
 * Returns, for every node, the id of its component; nodes on a common cycle share an id.
 * `successors(v)` lists the nodes `v` has an edge to.
 */
export function components(count: number, successors: (node: number) => readonly number[]): Int32Array {
  const index = new Int32Array(count).fill(-1)
  const low = new Int32Array(count)
  const component = new Int32Array(count).fill(-1)
  const onStack = new Uint8Array(count)
  const stack: number[] = []
  const frames: { node: number, edges: readonly number[], next: number }[] = []
  let counter = 0
  let nextComponent = 0

  for (let root = 0; root < count; root++) {
    if (index[root] !== -1) continue
    const enter = (node: number) => {
      index[node] = low[node] = counter++
      stack.push(node)
      onStack[node] = 1
      frames.push({ node, edges: successors(node), next: 0 })
    }
    enter(root)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]
        if (index[to] === -1) enter(to)
        else if (onStack[to]) low[frame.node] = Math.min(low[frame.node], index[to])
        continue
      }
      frames.pop()
      const { node } = frame
      if (frames.length > 0) {
        const parent = frames[frames.length - 1].node
        low[parent] = Math.min(low[parent], low[node])
      }
      if (low[node] === index[node]) {
        let member: number
        do {
          member = stack.pop()!
          onStack[member] = 0
          component[member] = nextComponent
        } while (member !== node)
        nextComponent++
      }
    }
  }
  return component
}
