// `npm run node`: builds the pinned avalanchego (v1.15, Helicon) if needed, starts a single-node
// test network with Helicon active on loopback, prints its URL and the funded test key's addresses, and stays up until Ctrl-C.
import { resolveNodeBinary, startLocalNode } from '../test/integration/node-harness.js';

// The local genesis's pre-funded key, on the test network's custom ID (hrp `custom`). Public
// knowledge: never use it elsewhere.
const FUNDED_KEY = {
  privateKey: 'PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN',
  bech32Body: 'custom18jma8ppw3nhx5r4ap8clazz0dps7rv5u9xde7p',
  evm: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
};

/** The wallet's "Local network" preset talks to 127.0.0.1:9650; XPC_NODE_PORT=0 lets the OS pick. */
function httpPort(): number {
  const raw = process.env['XPC_NODE_PORT'] ?? '9650';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`XPC_NODE_PORT must be a port number, got "${raw}"`);
  return port;
}

async function main(): Promise<void> {
  console.error('checking/building avalanchego (the first build takes ~3 min)…');
  const binary = await resolveNodeBinary();
  const node = await startLocalNode({ binary, logDir: process.env['XPC_NODE_LOG_DIR'], httpPort: httpPort() });
  console.log(`avalanchego ready in ${node.startupMs} ms (pid ${node.pid})`);
  console.log(`  URL          ${node.url}`);
  console.log(`  data dir     ${node.dataDir}`);
  console.log(`  node output  ${node.outputFile}`);
  console.log('funded test key (local network only):');
  console.log(`  private key  ${FUNDED_KEY.privateKey}`);
  console.log(`  X            X-${FUNDED_KEY.bech32Body}`);
  console.log(`  P            P-${FUNDED_KEY.bech32Body}`);
  console.log(`  C (atomic)   C-${FUNDED_KEY.bech32Body}`);
  console.log(`  EVM          ${FUNDED_KEY.evm}`);
  console.log('Ctrl-C to stop.');

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping the node…`);
    node.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Keep the event loop alive (the child process handle alone may be unref'd by the runtime).
  setInterval(() => undefined, 1 << 30);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
