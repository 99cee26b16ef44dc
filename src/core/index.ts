// The protocol library's public face: everything an outside user needs to talk to Avalanche's X,
// P and C chains from one import. Units: amounts are bigint in the chain's base unit (nAVAX on X
// and P and in atomic txs; wei on the C-Chain's EVM side, named `…Wei`). Gas prices carry their
// unit in their name: C-Chain ones are wei per gas (`baseFeeWei`, and EIP-1559's `maxFeePerGas`),
// the P-Chain's is nAVAX per gas (`gasPriceNavax`). Pure: no browser APIs.

// Bytes, amounts, text forms
export { type Bytes, concatBytes, equalBytes, fromHex, toHex } from './bytes.js';
export { formatAmount, parseAmount, UINT64_MAX, WEI_PER_NAVAX } from './amount.js';
export {
  cb58Decode,
  cb58Encode,
  formatAddress,
  formatNodeId,
  formatPrivateKey,
  fromApiHex,
  parseAddress,
  parseAddressFor,
  parseId,
  parseNodeId,
  parsePrivateKey,
  toApiHex,
} from './encoding.js';
export { formatEvmAddress, parseEvmAddress } from './evm-address.js';
export * from './errors.js';

// Keys
export {
  deriveEvmKey,
  deriveXpKey,
  generateMnemonic,
  HdRoot,
  type KeyPair,
  keyPairFromSecret,
  mnemonicToSeed,
  normalizeMnemonic,
  recoverSigner,
} from './keys.js';

// The wire format: X, P and C-atomic txs, UTXOs, credentials, IDs
export * from './codec/index.js';

// Building and signing
export { type ChainContext, makeOwners, MAX_ATOMIC_TX_SIZE, MAX_XP_TX_SIZE } from './tx/context.js';
export { type BuiltTx } from './tx/built.js';
export { classifyUtxo, ownedAddressSet, selectUtxos, type SpendableUtxo, spendableUtxos } from './tx/utxos.js';
export {
  buildXCreateAsset,
  buildXExport,
  buildXImport,
  buildXMint,
  buildXNftMint,
  buildXNftTransfer,
  buildXSend,
  buildXSendSplit,
  fixedCapState,
  nftFamilyState,
  type Payment,
  variableCapState,
} from './tx/x.js';
export { buildPExport, buildPImport, buildPSend } from './tx/p.js';
export { buildCExport, buildCImport, chargedGas, eip1559Fees, type EvmTxRequest, evmTxNonce, PLAIN_TRANSFER_GAS, signEvmTx, unsignedEvmTxHex } from './tx/c.js';
export { keychainOf, requiredCredentials, type SignedResult, signBuilt, signTx, verifySignedTx } from './tx/sign.js';

// Fees
export { atomicTxFee, atomicTxGas, avaxBurned, type PFeeContext, pTxComplexity, pTxFee } from './fees.js';

// Talking to a node
export { type ChainAlias, NodeClient, type NodeClientConfig } from './node.js';
export { chainContextOf, customPreset, discoverNetwork, FUJI, LOCAL, MAINNET, type NetworkIdentity, type NetworkPreset, PRESETS } from './network.js';
export { type AssetBalance, type Issued, WalletEngine } from './engine.js';
export { memoryProofCache, type ProofCache, provenAsset, proveUtxos } from './proof.js';

// What a tx does, for a person
export { describeTx, type TxView } from './describe.js';
export { signersOf } from './tx-senders.js';
