// What the test dApp (./app.ts, page code) and the tests that drive it (Node) both need: the
// chain the dApp expects, what it signs and pays, and the plain-data shapes its answers take.
// No side effects and no DOM: the tests import this file too.
import { defineChain, getAddress, parseEther, type Address } from 'viem';

/** The local Avalanche network's C-Chain (EVM chain ID 43112), as the dApp knows it. */
export const LOCAL_C_CHAIN = defineChain({
  id: 43_112,
  name: 'Avalanche Local C-Chain',
  nativeCurrency: { name: 'Avalanche', symbol: 'AVAX', decimals: 18 },
  // Never used: every request goes through the wallet's provider (custom transport).
  rpcUrls: { default: { http: ['http://127.0.0.1:9650/ext/bc/C/rpc'] } },
});

/**
 * The EVM chain the dApp adds (wallet_addEthereumChain) and its name for it: a look-alike of
 * Avalanche's with a zero-width space inside, which the wallet must clean and flag.
 */
export const ADDED_CHAIN = { id: 99_999, name: 'Avalanche\u200B Test', shownName: 'Avalanche Test', symbol: 'TST' } as const;

/** Where sendTransaction pays to: a fixed address nobody holds a key for. */
export const PAYEE: Address = getAddress('0x00000000000000000000000000000000000da99e');
/** What sendTransaction pays: odd, so that only the exact amount matches. */
export const PAYMENT_WEI = parseEther('0.012345');
/** personal_sign's message: two lines, as sign-in messages are. */
export const MESSAGE = 'Sign in to the XPC dApp test.\nNonce: 7f3a9c';
/** xpc_signMessage's message (Avalanche signed-message format, X key). */
export const XP_MESSAGE = 'I own this X-Chain address (XPC dApp test)';

/** The EIP-712 message signTypedData asks for: the specification's own Mail example. */
export function typedDataFor(chainId: number) {
  return {
    domain: {
      name: 'XPC dApp test',
      version: '1',
      chainId,
      verifyingContract: getAddress('0xcccccccccccccccccccccccccccccccccccccccc'),
    },
    types: {
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    message: {
      from: { name: 'Cow', wallet: getAddress('0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826') },
      to: { name: 'Bob', wallet: getAddress('0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb') },
      contents: 'Hello, Bob!',
    },
  } as const;
}

/** An EIP-6963 announcement's info, as the dApp saw it. */
export interface AnnouncedInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface RecordedEvent {
  event: 'connect' | 'accountsChanged' | 'chainChanged' | 'disconnect';
  data: unknown;
}

/** A failed call, as plain data: the error chain's names (outermost first) and its first numeric code. */
export interface CallError {
  name: string;
  names: string[];
  code: number | undefined;
  message: string;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: CallError };

/** A transaction receipt with its bigints as decimal strings. */
export interface ReceiptView {
  status: 'success' | 'reverted';
  transactionHash: string;
  from: string;
  to: string | null;
  blockNumber: string;
  gasUsed: string;
  /** A deployment's new contract. */
  contractAddress: string | null;
}
