// Who sent funds the wallet received: the addresses whose keys signed the tx that created them,
// recovered from its credentials (an X or P tx names no sender otherwise; its inputs only point at
// older outputs). Read from the hash-checked tx, so the node cannot name another sender. A tx the
// chain itself made (a staking reward) has no signers.
import { type Bytes, toHex } from './bytes.js';
import { decodeChainTx } from './codec/codec.js';
import { hashForSigning, recoverSigner } from './keys.js';
import { type CallOptions, getTx, type NodeClient } from './node.js';
import { VM_OF } from './node/types.js';

/** The short IDs (20 bytes) of every key that signed `txID` on `chain`, each once, in credential order. */
export async function signersOf(node: NodeClient, chain: 'X' | 'P', txID: string, opts?: CallOptions): Promise<Bytes[]> {
  const bytes = await getTx(node, chain, txID, opts);
  const decoded = decodeChainTx(bytes, VM_OF[chain]);
  const digest = hashForSigning(bytes.subarray(0, decoded.unsignedLength));
  const seen = new Map<string, Bytes>();
  for (const credential of decoded.credentials) {
    for (const signature of credential.signatures) {
      const { shortId } = recoverSigner(digest, signature);
      seen.set(toHex(shortId), shortId);
    }
  }
  return [...seen.values()];
}
