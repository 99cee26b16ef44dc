// Typed client for the node's APIs: info, X (avm), P (platform), C atomic, C EVM, health, index.
// Every answer is shape-checked; everything that can be checked against bytes the wallet holds
// (tx IDs, UTXO checksums and owners) is checked, so a lying node is caught here. One module per
// API under src/core/node/; this file is their public face.
export type { CallOptions } from './rpc.js';
export * from './node/types.js';
export { InfoApi } from './node/info.js';
export { AvmApi } from './node/avm.js';
export { PlatformApi } from './node/platform.js';
export { AtomicApi } from './node/atomic.js';
export { EthApi } from './node/eth.js';
export { HealthApi } from './node/health.js';
export { IndexApi } from './node/index-api.js';
export { BlockApi, type BlockSummary, MAX_BLOCKS_SEARCHED } from './node/blocks.js';
export { getTx, NodeClient } from './node/client.js';
