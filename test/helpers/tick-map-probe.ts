/**
 * Run as a child (`node --expose-gc --import tsx tick-map-probe.ts [keep]`): prints, as JSON, the
 * heap-snapshot id of a tick object's map before and after a full GC made while no tick object
 * is alive (with `keep`, after keepTickShape()). Same id: the map outlived the GC.
 */
import v8 from 'node:v8';
import { keepTickShape, nextTickObject } from '../../src/tick-shape.js';

/** A tick object, held by nothing but the caller. */
async function tickObject(): Promise<object> {
  const tick = await nextTickObject();
  if (tick === null) throw new Error('no tick object caught');
  return tick;
}

/** Holds the tick object looked for in the snapshot: a class name easy to find. */
class TickProbe {
  constructor(readonly tick: object) {}
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** The snapshot id of the map of the TickProbe's tick object. */
async function probedMapId(): Promise<number> {
  let text = '';
  for await (const chunk of v8.getHeapSnapshot()) text += String(chunk);
  const { snapshot, nodes, edges, strings } = JSON.parse(text) as Snapshot;
  const nf = snapshot.meta.node_fields;
  const ef = snapshot.meta.edge_fields;
  const [name, id, edgeCount] = ['name', 'id', 'edge_count'].map((f) => nf.indexOf(f)) as [number, number, number];
  const [type, edgeName, to] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f)) as [number, number, number];
  const firstEdge = new Map<number, number>();
  for (let n = 0, e = 0; n < nodes.length; n += nf.length) {
    firstEdge.set(n, e);
    e += nodes[n + edgeCount]! * ef.length;
  }
  const edge = (from: number, kind: string, label: string): number | undefined => {
    const start = firstEdge.get(from)!;
    for (let k = 0; k < nodes[from + edgeCount]!; k++) {
      const e = start + k * ef.length;
      if (snapshot.meta.edge_types[0][edges[e + type]!] === kind && strings[edges[e + edgeName]!] === label) return edges[e + to];
    }
    return undefined;
  };
  for (let n = 0; n < nodes.length; n += nf.length) {
    if (strings[nodes[n + name]!] !== 'TickProbe') continue;
    const tick = edge(n, 'property', 'tick');
    const map = tick === undefined ? undefined : edge(tick, 'internal', 'map');
    if (map !== undefined) return nodes[map + id]!;
  }
  throw new Error('TickProbe not found in the heap snapshot');
}

if (process.argv[2] === 'keep' && !(await keepTickShape())) throw new Error('keepTickShape kept nothing');
/** What the snapshot finds: a TickProbe here, and nothing else holds its tick object. */
const held: { probe: TickProbe | null } = { probe: new TickProbe(await tickObject()) };
const before = await probedMapId();
held.probe = null;
await new Promise((resolve) => setImmediate(resolve)); // no tick object queued or held
(globalThis as { gc?: () => void }).gc!();
held.probe = new TickProbe(await tickObject());
const after = await probedMapId();
process.stdout.write(JSON.stringify({ before, after }));
