/**
 * The calls that may start now, lowest model index first (a binary min-heap of indices), so
 * that calls becoming ready together start, and enter pre-execute, in model order.
 */
export class ReadyQueue {
  private readonly heap: number[] = []

  get size(): number {
    return this.heap.length
  }

  push(index: number): void {
    const heap = this.heap
    let i = heap.push(index) - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heap[parent] <= index) break
      heap[i] = heap[parent]
      i = parent
    }
    heap[i] = index
  }

  /** Removes and returns the lowest index (the queue must not be empty). */
  pop(): number {
    const heap = this.heap
    const top = heap[0]
    const last = heap.pop()!
    if (heap.length > 0) {
      let i = 0
      for (;;) {
        const left = 2 * i + 1
        if (left >= heap.length) break
        const child = left + 1 < heap.length && heap[left + 1] < heap[left] ? left + 1 : left
        if (heap[child] >= last) break
        heap[i] = heap[child]
        i = child
      }
      heap[i] = last
    }
    return top
  }

  clear(): void {
    this.heap.length = 0
  }
}
