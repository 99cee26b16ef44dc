// vitest globalSetup for the integration project: builds (or finds) the pinned avalanchego, starts
// ONE local node for the whole run and hands its URL to the tests via provide/inject.
// A missing toolchain or a failed build fails the run with the reason: the suite never skips.
import type { TestProject } from 'vitest/node';
import { resolveNodeBinary, startLocalNode, type LocalNode } from './node-harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    nodeUrl: string;
  }
}

let node: LocalNode | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binary = await resolveNodeBinary();
  node = await startLocalNode({ binary, logDir: process.env['XPC_NODE_LOG_DIR'] });
  console.log(`[integration] avalanchego ready at ${node.url} (pid ${node.pid}) in ${node.startupMs} ms`);
  project.provide('nodeUrl', node.url);
  return async () => {
    await node?.stop();
    node = undefined;
  };
}
