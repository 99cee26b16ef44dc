// Shared pieces of the real-node suite: a client for the node started by global-setup.ts, the
// public genesis test key, and fresh HD wallets funded from it (so each test acts as a wallet
// with its own derivation, change addresses and scanning, never as the genesis key).
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { toHex, type Bytes } from '../../src/core/bytes.js';
import { parsePrivateKey } from '../../src/core/encoding.js';
import { WalletEngine, type EngineKeys } from '../../src/core/engine.js';
import {
  deriveEvmKey,
  deriveXpKey,
  generateMnemonic,
  HdRoot,
  keyPairFromSecret,
  mnemonicToSeed,
  type KeyPair,
} from '../../src/core/keys.js';
import { chainContextOf, discoverNetwork, LOCAL, type NetworkIdentity } from '../../src/core/network.js';
import { NodeClient } from '../../src/core/node.js';
import { makeOwners, type ChainContext } from '../../src/core/tx/context.js';
import { chainsKey, outboxKey } from '../../src/background/account-cache.js';

/** The local network's pre-funded key: public knowledge, for tests only. */
export const GENESIS_KEY = keyPairFromSecret(parsePrivateKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN'));
/** A new key nobody else uses: a fresh recipient. */
export function freshKey(): KeyPair {
  return keyPairFromSecret(new Uint8Array(randomBytes(32)));
}

export const AVAX = 1_000_000_000n;
export { WEI_PER_NAVAX } from '../../src/core/amount.js';

export interface LocalNetwork {
  client: NodeClient;
  identity: NetworkIdentity;
  ctx: ChainContext;
}

let cached: Promise<LocalNetwork> | undefined;

export function localNetwork(): Promise<LocalNetwork> {
  cached ??= (async () => {
    const url = inject('nodeUrl');
    const client = new NodeClient({ url, atomicApi: LOCAL.atomicApi, timeoutMs: 20_000 });
    const identity = await discoverNetwork(client, { ...LOCAL, url });
    return { client, identity, ctx: chainContextOf(identity) };
  })();
  return cached;
}

/** Where the wallet keeps an account's outbox on the test node's chains (for tests that write or drop one). */
export async function testNodeOutboxKey(accountId: string): Promise<string> {
  const { identity } = await localNetwork();
  return outboxKey(chainsKey(identity.networkID, identity.xChainID), accountId);
}

export function engineOf(net: LocalNetwork, keys: EngineKeys): WalletEngine {
  return new WalletEngine(net.client, net.ctx, keys, {
    evmChainId: BigInt(net.identity.evmChainID),
    wait: { timeoutMs: 60_000, pollMs: 100 },
  });
}

export async function genesisEngine(): Promise<WalletEngine> {
  return engineOf(await localNetwork(), { xp: [GENESIS_KEY], evm: GENESIS_KEY, change: GENESIS_KEY.shortId });
}

export interface TestWallet {
  engine: WalletEngine;
  receive: KeyPair[];
  change: KeyPair[];
  evm: KeyPair;
  /** Owners of the first receive address. */
  me: ReturnType<typeof makeOwners>;
}

/**
 * A new 24-word HD wallet (account 0: receive and change keys, the EVM key), funded from the
 * genesis key with the given amounts (nAVAX on X and P, wei on C), each funding accepted.
 */
export async function freshWallet(funding: { x?: bigint; p?: bigint; cWei?: bigint } = {}, keysPerBranch = 3): Promise<TestWallet> {
  const net = await localNetwork();
  const root = HdRoot.fromSeed(await mnemonicToSeed(generateMnemonic(24)));
  const receive = Array.from({ length: keysPerBranch }, (_, i) => deriveXpKey(root, 0, 0, i));
  const change = Array.from({ length: keysPerBranch }, (_, i) => deriveXpKey(root, 0, 1, i));
  const evm = deriveEvmKey(root, 0);
  const engine = engineOf(net, { xp: [...receive, ...change], evm, change: change[0]!.shortId });
  const me = makeOwners([receive[0]!.shortId]);
  const genesis = await genesisEngine();
  if (funding.x) await genesis.issueAndWait(await genesis.buildXSend([{ assetID: net.ctx.avaxAssetID, amount: funding.x, owners: me }]));
  if (funding.p) await genesis.issueAndWait(await genesis.buildPSend(funding.p, me));
  if (funding.cWei) {
    await genesis.sendC(engine.evmAddress, funding.cWei);
    // Seen under Helicon: the receipt is out a moment before 'latest' state shows what the block did.
    for (let i = 0; i < 100 && (await engine.cBalanceWei()) < funding.cWei; i++) await new Promise((r) => setTimeout(r, 50));
  }
  return { engine, receive, change, evm, me };
}

/** Spendable amount of one asset on X or P, straight from the node's UTXOs. */
export async function spendableOf(engine: WalletEngine, chain: 'X' | 'P', assetID: Bytes): Promise<bigint> {
  const balances = await engine.balances(chain);
  return balances.find((b) => toHex(b.assetID) === toHex(assetID))?.spendable ?? 0n;
}

export async function avaxOf(engine: WalletEngine, chain: 'X' | 'P'): Promise<bigint> {
  return spendableOf(engine, chain, engine.ctx.avaxAssetID);
}
