// Pieces of the P-Chain tx-type suite (pvm-types.test.ts): the wallet's background as a site sees
// it (every approval answered yes, each summary kept), the node's P-Chain and info APIs called raw
// (so what the test checks does not go through the wallet's own client), P UTXOs handed to
// avalanchejs, and fresh BLS keys with their proof of possession.
import { randomBytes } from 'node:crypto';
import { bls, Utxo as AjsUtxo, utils } from '@avalabs/avalanchejs';
import { inject } from 'vitest';
import type { Site } from '../../src/background/provider.js';
import { memoryStores } from '../../src/background/storage.js';
import type { Wallet } from '../../src/background/services/index.js';
import { type Bytes, fromHex, toHex } from '../../src/core/bytes.js';
import { encodeUtxo } from '../../src/core/codec/codec.js';
import { generateMnemonic } from '../../src/core/keys.js';
import type { NodeClient } from '../../src/core/node.js';
import { memoryProofCache, type ProofNetwork, proveUtxos } from '../../src/core/proof.js';
import type { AccountView, ApprovalSummary } from '../../src/shared/messages.js';
import { PROVIDER_CHANNEL } from '../../src/shared/provider-protocol.js';
import { AVAX } from './fixture.js';
import { lyingNode } from './lying-node.js';
import { fundedWallet, providerBackground } from './wallet-fixture.js';

export const SITE: Site = { origin: 'https://staking.example' };
export type TxSummary = Extract<ApprovalSummary, { kind: 'tx' }>;

export interface SiteWallet {
  wallet: Wallet;
  account: AccountView;
  /** Every approval the user was shown, in order. */
  shown: ApprovalSummary[];
  /** A site request; throws with the provider's code and message when it fails. */
  request(method: string, params?: unknown): Promise<unknown>;
}

/**
 * A new wallet (one fresh 24-word account) on the test node, connected to SITE, whose user approves
 * every request after looking at it (and, when given, once `beforeApproving` has settled).
 */
export async function siteWallet(beforeApproving?: () => Promise<void>): Promise<SiteWallet> {
  const shown: ApprovalSummary[] = [];
  const answered = new Set<string>();
  const { wallet, provider } = await providerBackground(memoryStores(), {
    openApprovalWindow: ({ approvals }) => {
      setTimeout(() => {
        void (async () => {
          for (const p of await approvals.list()) {
            if (answered.has(p.id)) continue;
            answered.add(p.id);
            shown.push(p.summary as ApprovalSummary);
            await beforeApproving?.();
            await approvals.decide(p.id, true);
          }
        })();
      }, 5);
    },
  });
  await wallet.accounts.walletCreate({ password: 'pvm types password', mnemonic: generateMnemonic(24) });
  const network = await wallet.networks.networksAddCustom({ name: 'Test node', url: inject('nodeUrl') });
  const account = (await wallet.networks.networksSelect({ id: network.id })).account!;
  let n = 0;
  const request = async (method: string, params?: unknown): Promise<unknown> => {
    const r = await provider.handle({ channel: PROVIDER_CHANNEL, requestId: `pvm-${++n}`, method, ...(params !== undefined ? { params } : {}) }, SITE);
    if (!r.ok) throw new Error(`${method} failed: ${r.error.code} ${r.error.message}`);
    return r.result;
  };
  await request('eth_requestAccounts', []);
  return { wallet, account, shown, request };
}

let rpcId = 0;
/** A JSON-RPC call to the node, raw: `path` is '/ext/bc/P' or '/ext/info'. */
export async function nodeRpc<T>(path: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${inject('nodeUrl')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error || body.result === undefined) throw new Error(`${method}: ${body.error?.message ?? 'no result'}`);
  return body.result;
}

export const pRpc = <T>(method: string, params: Record<string, unknown> = {}): Promise<T> => nodeRpc<T>('/ext/bc/P', method, params);

/** platform.getTx as the node stores it: the signed bytes (the API's checksum checked and dropped). */
export async function nodeTxBytes(txID: string): Promise<Bytes> {
  const { tx } = await pRpc<{ tx: string }>('platform.getTx', { txID, encoding: 'hex' });
  const all = fromHex(tx.slice(2));
  return all.slice(0, all.length - 4);
}

/** P-Chain time, Unix seconds. */
export async function pChainTime(): Promise<bigint> {
  const { timestamp } = await pRpc<{ timestamp: string }>('platform.getTimestamp');
  return BigInt(Math.floor(Date.parse(timestamp) / 1000));
}

/** The latest of P-Chain time and wall-clock time (a new block takes the wall clock). */
export async function nowOnP(): Promise<bigint> {
  const wall = BigInt(Math.floor(Date.now() / 1000));
  const p = await pChainTime();
  return p > wall ? p : wall;
}

/** A P address's UTXOs as avalanchejs objects, read from the node. */
/**
 * The wallet's P UTXOs a site may build with: the ones their creating tx proves. A refund or a
 * reward exists only in the chain's state, and the wallet signs no site tx that spends one.
 */
export async function ajsUtxosOf(client: NodeClient, pAddress: string, network: ProofNetwork): Promise<AjsUtxo[]> {
  const read = await client.getAllUtxos('P', [pAddress]);
  const checked = await proveUtxos(client, 'P', read.utxos.map((utxo, i) => ({ utxo, bytes: read.encoded[i]!, digest: read.digests[i]! })), { network, cache: memoryProofCache() });
  const unproven = new Set(checked.unproven);
  return checked.utxos.filter((u) => !unproven.has(u)).map((u) => utils.getManagerForVM('PVM').unpack(encodeUtxo(u, 'pvm'), AjsUtxo));
}

/** The compressed G1 generator: the BLS public key of secret key 1. */
const G1_GENERATOR = fromHex('97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb');

/** A fresh BLS key: the 48-byte public key and the 96-byte proof of possession of it. */
export function freshBlsKey(): { publicKey: Bytes; proofOfPossession: Bytes } {
  const secret = new Uint8Array(randomBytes(32));
  secret[0]! &= 0x3f; // below the group order
  const sk = bls.secretKeyFromBytes(secret);
  const publicKey = bls.publicKeyToBytes(bls.publicKeyFromBytes(G1_GENERATOR).multiply(sk));
  const proofOfPossession = bls.signProofOfPossession(publicKey, sk);
  if (!bls.verifyProofOfPossession(bls.publicKeyFromBytes(publicKey), bls.signatureFromBytes(proofOfPossession), publicKey)) {
    throw new Error('the proof of possession does not verify');
  }
  return { publicKey, proofOfPossession };
}

/** A random NodeID's 20 bytes. */
export function freshNodeId(): Bytes {
  return new Uint8Array(randomBytes(20));
}

export const hex0x = (b: Bytes): string => `0x${toHex(b)}`;

/** A genesis validator of the test node charging its delegators 6.25% (NodeID-7Xhw2… charges 100%), validating for years. */
export const GENESIS_VALIDATOR = 'NodeID-P7oB2McjBGgW2NXXWVYjV8JEDFoW9xDE5';

/** A wallet with 30 AVAX on P behind a lying node, and the review of a 25 AVAX delegation to the genesis validator. */
export async function delegationBehindLyingNode() {
  const node = lyingNode();
  const { wallet, stores, account } = await fundedWallet({ p: 30n * AVAX }, { fetch: node.fetch, wait: { timeoutMs: 1_500, pollMs: 100 } });
  const base = { nodeID: GENESIS_VALIDATOR, amount: (25n * AVAX).toString(), end: Number(await nowOnP()) + 120 };
  return { node, wallet, stores, account, base, review: await wallet.staking.stakingEstimateDelegation(base) };
}
