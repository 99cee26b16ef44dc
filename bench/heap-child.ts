// Peak heap of decoding N UTXO hex strings, in a process of its own so nothing else the bench
// allocated is on the heap. Run as: node --expose-gc --import tsx bench/heap-child.ts <ours|avalanchejs> <N>
// Prints one JSON line: baseline is the heap with the hex strings already loaded (the node's answer
// has to be held by either library); peak and retained are measured above it. "Heap" here is V8's
// heapUsed plus ArrayBuffer backing stores, which live outside it (bytes decoded into Uint8Arrays).
import { decodeAvalanchejs, decodeOurs, utxoHexes } from './utxo-decode.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const which = process.argv[2];
const count = Number(process.argv[3] ?? 100_000);
if (which !== 'ours' && which !== 'avalanchejs') throw new Error('first argument: ours or avalanchejs');

const hexes = utxoHexes(count);
// Warm the decoder on a small slice so JIT code is not counted as the workload's heap.
(which === 'ours' ? decodeOurs : decodeAvalanchejs)(hexes.slice(0, 2_000));
const heap = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
gc();
gc();
const baseline = heap();

// Decode in chunks of 1,000, sampling the heap after each: the highest sample is the peak (GC may
// run between samples, so the true peak of garbage can be a little higher; what stays live cannot).
const CHUNK = 1_000;
let peak = baseline;
const kept: unknown[] = [];
for (let i = 0; i < hexes.length; i += CHUNK) {
  kept.push((which === 'ours' ? decodeOurs : decodeAvalanchejs)(hexes.slice(i, i + CHUNK)));
  peak = Math.max(peak, heap());
}
gc();
gc();
const retained = heap() - baseline;
console.log(JSON.stringify({ which, count, baseline, peak: peak - baseline, retained, keptChunks: kept.length }));
