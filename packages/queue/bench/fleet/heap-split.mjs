/**
 * What a V8 heap snapshot holds, split in two: the JIT's part — code objects (bytecode, compiled
 * code) and the lists of code that depends on an object's shape (`dependent_code`) — and every
 * other object, which is the program's data. The heap's space statistics cannot tell them
 * apart: bytecode lives in the old space beside the data, so a worker whose run path is still
 * being compiled seems to grow even when it keeps nothing. Read by the fleet bench's worker.
 */
import { readFileSync } from 'node:fs'

/** Bytes of code and of data (self sizes) in the snapshot file `path`. */
export function heapSplit(path) {
  const { snapshot: { meta }, nodes, edges, strings } = JSON.parse(readFileSync(path, 'utf8'))
  const nodeFields = meta.node_fields.length
  const edgeFields = meta.edge_fields.length
  const TYPE = meta.node_fields.indexOf('type')
  const SIZE = meta.node_fields.indexOf('self_size')
  const EDGES = meta.node_fields.indexOf('edge_count')
  const EDGE_TYPE = meta.edge_fields.indexOf('type')
  const EDGE_NAME = meta.edge_fields.indexOf('name_or_index')
  const EDGE_TO = meta.edge_fields.indexOf('to_node')
  const codeType = meta.node_types[0].indexOf('code')
  const internalEdge = meta.edge_types[0].indexOf('internal')
  const dependentCode = strings.indexOf('dependent_code')

  // Nodes (by their offset in `nodes`) that are some object's dependent-code list.
  const dependents = new Set()
  let edge = 0
  for (let node = 0; node < nodes.length; node += nodeFields) {
    for (let k = nodes[node + EDGES]; k > 0; k--, edge += edgeFields) {
      if (edges[edge + EDGE_TYPE] === internalEdge && edges[edge + EDGE_NAME] === dependentCode) dependents.add(edges[edge + EDGE_TO])
    }
  }
  let code = 0
  let data = 0
  for (let node = 0; node < nodes.length; node += nodeFields) {
    if (nodes[node + TYPE] === codeType || dependents.has(node)) code += nodes[node + SIZE]
    else data += nodes[node + SIZE]
  }
  return { code, data }
}
