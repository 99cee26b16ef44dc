// Inputs shared by the offline benchmarks: one chain context in both libraries' forms, fixed keys,
// and UTXO sets built once in our structures and handed to avalanchejs as the bytes it would get
// from the node (so both sides see exactly the same UTXOs).
import { sha256 } from '@noble/hashes/sha2.js';
import { type Context, utils, Utxo as AjsUtxo } from '@avalabs/avalanchejs';
import { utf8 } from '../src/core/bytes.js';
import { encodeUtxo, type OutputOwners, type Utxo, type Vm } from '../src/core/codec/index.js';
import type { PFeeContext } from '../src/core/fees.js';
import { keyPairFromSecret, parseSecretKey, type KeyPair } from '../src/core/keys.js';
import { type ChainContext, makeOwners } from '../src/core/tx/context.js';
import { avalanchejsContextOf } from '../test/unit/avalanchejs-context.js';

const label = (text: string): Uint8Array => sha256(utf8.encode(`xpc-wallet bench: ${text}`));

export const ctx: ChainContext = {
  networkID: 12345,
  hrp: 'local',
  xChainID: label('x chain'),
  // avalanchejs' P-Chain builders always write the primary network's all-zero chain ID.
  pChainID: new Uint8Array(32),
  cChainID: label('c chain'),
  avaxAssetID: label('avax'),
  xTxFee: 1_000_000n,
  xCreateAssetTxFee: 10_000_000n,
};

/** P-Chain dynamic fee inputs; the avalanchejs fee state and config below describe the same fee. */
export const pFee: PFeeContext = { weights: [1n, 1000n, 1000n, 4n], gasPriceNavax: 3n };

export const ajsContext: Context.Context = avalanchejsContextOf(ctx);
export const ajsFeeState = { capacity: 1_000_000n, excess: 0n, price: pFee.gasPriceNavax, timestamp: new Date(0).toISOString() };

/** Chain time handed to both libraries' spendability checks (no UTXO here is time-locked). */
export const NOW = 1_700_000_000n;

/** The local network's public test key first, then 19 more fixed keys: 20 distinct signers. */
export const KEYS: KeyPair[] = [
  keyPairFromSecret(parseSecretKey('PrivateKey-ewoqjP7PxY4yr3iLTpLisriqt94hdyDFNgchSxGGztUrTXtNN')),
  ...Array.from({ length: 19 }, (_, i) => keyPairFromSecret(label(`key ${i + 1}`))),
];
export const RECIPIENT = label('recipient').slice(0, 20);
export const OTHER_ASSET = label('another asset');

const AJS_VM = { avm: 'AVM', pvm: 'PVM', evm: 'EVM' } as const;

/** A 1-of-1 TransferOutput UTXO; the tx ID is derived from `seed` so every UTXO is distinct. */
export function utxoOf(seed: string, amount: bigint, owners: OutputOwners, assetID = ctx.avaxAssetID, outputIndex = 0): Utxo {
  return { txID: label(seed), outputIndex, assetID, output: { kind: 'TransferOutput', amount, owners } };
}

/**
 * N UTXOs of distinct amounts (so selection order is well defined), owned round-robin by the
 * first `keyCount` keys.
 */
export function utxoSet(prefix: string, n: number, keyCount: number, base = 10_000_000n): Utxo[] {
  const owners = KEYS.slice(0, keyCount).map((k) => makeOwners([k.shortId]));
  return Array.from({ length: n }, (_, i) => utxoOf(`${prefix} ${i}`, base + BigInt(i) * 1_000n, owners[i % keyCount]!));
}

/** The same UTXO as avalanchejs sees it: parsed by its own codec from our encoding. */
export function toAjsUtxo(u: Utxo, vm: Vm): AjsUtxo {
  return utils.getManagerForVM(AJS_VM[vm]).unpack(encodeUtxo(u, vm), AjsUtxo);
}
