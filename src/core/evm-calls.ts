// What a contract call or a typed-data signature does with tokens, decoded from its exact bytes:
// transfers, allowances (approve, increaseAllowance, setApprovalForAll, Permit2's approve),
// EIP-2612 permits and Uniswap's Permit2. Only well-formed data of a known shape is decoded; anything else stays
// "unknown call" and the approval shows the raw data (docs/tokens.md).
import { AbiReader, selectorOf } from './evm-abi.js';
import { formatEvmAddress, parseEvmAddress } from './evm-address.js';
import { isRecord } from './rpc.js';

/**
 * One token operation. `amount` is in the token's base units, `tokenId` an NFT's ID. transferFrom
 * and approve(address,uint256) share their selector between ERC-20 and ERC-721: which one is meant
 * follows from the contract's standard (the caller knows it), so both readings are kept.
 */
export type TokenCall =
  | { kind: 'transfer'; to: string; amount: bigint }
  | { kind: 'transferFrom'; from: string; to: string; amount: bigint }
  | { kind: 'safeTransferFrom'; from: string; to: string; tokenId: bigint; amount?: bigint }
  | { kind: 'approve'; spender: string; amount: bigint }
  | { kind: 'increaseAllowance'; spender: string; amount: bigint }
  | { kind: 'setApprovalForAll'; operator: string; approved: boolean }
  | { kind: 'permit2Approve'; token: string; spender: string; amount: bigint; expiration: bigint };

type Decoder = (r: AbiReader) => TokenCall;

const CALLS: Record<string, { words: number; decode: Decoder }> = {};
function known(signature: string, words: number, decode: Decoder): void {
  CALLS[selectorOf(signature)] = { words, decode };
}
known('transfer(address,uint256)', 2, (r) => ({ kind: 'transfer', to: r.address(0), amount: r.uint(1) }));
known('transferFrom(address,address,uint256)', 3, (r) => ({ kind: 'transferFrom', from: r.address(0), to: r.address(1), amount: r.uint(2) }));
known('safeTransferFrom(address,address,uint256)', 3, (r) => ({ kind: 'safeTransferFrom', from: r.address(0), to: r.address(1), tokenId: r.uint(2) }));
known('safeTransferFrom(address,address,uint256,bytes)', 4, (r) => ({ kind: 'safeTransferFrom', from: r.address(0), to: r.address(1), tokenId: r.uint(2) }));
known('safeTransferFrom(address,address,uint256,uint256,bytes)', 5, (r) => ({ kind: 'safeTransferFrom', from: r.address(0), to: r.address(1), tokenId: r.uint(2), amount: r.uint(3) }));
known('approve(address,uint256)', 2, (r) => ({ kind: 'approve', spender: r.address(0), amount: r.uint(1) }));
known('increaseAllowance(address,uint256)', 2, (r) => ({ kind: 'increaseAllowance', spender: r.address(0), amount: r.uint(1) }));
known('setApprovalForAll(address,bool)', 2, (r) => ({ kind: 'setApprovalForAll', operator: r.address(0), approved: r.bool(1) }));
// Permit2's own allowance, set by a call to Permit2 (not by a signature): `spender` may take `token`
// of the caller's through Permit2 until `expiration`, drawing on the token's allowance to Permit2.
known('approve(address,address,uint160,uint48)', 4, (r) => ({ kind: 'permit2Approve', token: r.address(0), spender: r.address(1), amount: r.uint(2), expiration: r.uint(3) }));

/** The token operation this call data asks for, or undefined (another function, or malformed arguments). */
export function decodeTokenCall(data: string): TokenCall | undefined {
  if (!/^0x[0-9a-fA-F]{8}/.test(data)) return undefined;
  const entry = CALLS[data.slice(0, 10).toLowerCase()];
  if (!entry) return undefined;
  try {
    const r = new AbiReader(data, true);
    if (r.words < entry.words) return undefined;
    return entry.decode(r);
  } catch {
    return undefined;
  }
}

// ---- typed data (eth_signTypedData_v4) ----

/** The Permit2 contract, at the same address on every chain it is deployed to. */
export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
/** A Permit2 allowance this large (uint160's upper half) is "unlimited". */
export const PERMIT2_UNLIMITED = 1n << 159n;

/** One token a permit lets `spender` take: `amount` of `token` (a Permit2 amount is uint160). */
export interface PermitGrant {
  token: string;
  amount: bigint;
  /** Permit2 allowances: until when the allowance lasts (Unix seconds). */
  expiration?: bigint;
}

/** A signature that hands out an allowance: EIP-2612 on the token itself, or through Permit2. */
export interface TypedPermit {
  kind: 'eip2612' | 'permit2-allowance' | 'permit2-transfer';
  spender: string;
  grants: PermitGrant[];
  /** The signature is good until then (Unix seconds). */
  deadline: bigint;
  /** The contract that checks the signature (the token for EIP-2612, Permit2 otherwise). */
  verifier: string;
  owner?: string;
}

/** uint256's maximum: DAI's `allowed: true`, and a deadline that never comes. */
const NEVER = (1n << 256n) - 1n;

/**
 * A signature of one of these types grants tokens (EIP-2612, DAI's permit, Permit2 and its witness
 * variants): the wallet signs one only when it could decode what it grants.
 */
export function isPermitType(primaryType: string): boolean {
  return primaryType.startsWith('Permit');
}

interface Typed {
  types: Readonly<Record<string, readonly { name: string; type: string }[]>>;
  domain: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * Of struct `value` of type `typeName`, only the fields its type declares: those the signature
 * covers. A field the types leave out (a decoy `allowed: false` beside an unlimited `value`, say)
 * must never decide what the permit is shown to grant.
 */
function declared(typed: Typed, typeName: string, value: unknown): Record<string, unknown> {
  const fields = typed.types[typeName];
  if (!Array.isArray(fields)) throw new Error('an undeclared type');
  const v = obj(value);
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(v, f.name)).map((f) => [f.name, v[f.name]]));
}

/** The struct type of field `name` of `typeName` (an array's element type), as declared. */
function fieldType(typed: Typed, typeName: string, name: string): string {
  const type = typed.types[typeName]?.find((f) => f.name === name)?.type;
  if (type === undefined) throw new Error('an undeclared field');
  return type.replace(/\[\]$/, '');
}

/** Field `name` of `parent` (of type `parentType`): one struct, or (`many`) a list of them, each cut to its declared fields. */
function structs(typed: Typed, parentType: string, parent: Record<string, unknown>, name: string, many: boolean): Record<string, unknown>[] {
  const type = fieldType(typed, parentType, name);
  const v = parent[name];
  if (!many) return [declared(typed, type, v)];
  if (!Array.isArray(v)) throw new Error('not a list');
  return v.map((x) => declared(typed, type, x));
}

function addr(v: unknown): string {
  if (typeof v !== 'string') throw new Error('not an address');
  return formatEvmAddress(parseEvmAddress(v));
}

function num(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  // What normaliseTypedData (core/message.ts) writes, and the hex form.
  if (typeof v === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(v)) return BigInt(v);
  throw new Error('not a number');
}

function obj(v: unknown): Record<string, unknown> {
  if (!isRecord(v)) throw new Error('not an object');
  return v;
}

/**
 * The allowance a typed-data signature grants, when it is an EIP-2612 Permit (on the domain's
 * verifying contract: the token) or a Permit2 PermitSingle / PermitBatch / PermitTransferFrom /
 * PermitBatchTransferFrom (on the Permit2 contract). Anything else, or malformed: undefined.
 */
export function decodeTypedPermit(typed: Typed): TypedPermit | undefined {
  try {
    const m = declared(typed, typed.primaryType, typed.message);
    const verifier = addr(typed.domain['verifyingContract']);
    const isPermit2 = verifier.toLowerCase() === PERMIT2_ADDRESS.toLowerCase();
    switch (typed.primaryType) {
      case 'Permit':
        if (isPermit2) return undefined;
        // DAI's older permit: `allowed` grants everything or takes it back; an expiry of 0 never ends.
        if (Object.hasOwn(m, 'holder') && Object.hasOwn(m, 'allowed')) {
          if (typeof m['allowed'] !== 'boolean') return undefined;
          const expiry = num(m['expiry']);
          return { kind: 'eip2612', spender: addr(m['spender']), owner: addr(m['holder']), deadline: expiry === 0n ? NEVER : expiry, verifier, grants: [{ token: verifier, amount: m['allowed'] ? NEVER : 0n }] };
        }
        return { kind: 'eip2612', spender: addr(m['spender']), owner: addr(m['owner']), deadline: num(m['deadline']), verifier, grants: [{ token: verifier, amount: num(m['value']) }] };
      case 'PermitSingle':
      case 'PermitBatch': {
        if (!isPermit2) return undefined;
        const details = structs(typed, typed.primaryType, m, 'details', typed.primaryType === 'PermitBatch');
        const grants = details.map((d) => ({ token: addr(d['token']), amount: num(d['amount']), expiration: num(d['expiration']) }));
        return { kind: 'permit2-allowance', spender: addr(m['spender']), deadline: num(m['sigDeadline']), verifier, grants };
      }
      case 'PermitTransferFrom':
      case 'PermitBatchTransferFrom':
      case 'PermitWitnessTransferFrom':
      case 'PermitBatchWitnessTransferFrom': {
        if (!isPermit2) return undefined;
        // The witness is the spending contract's own data (an order): shown raw, it grants nothing more.
        const permitted = structs(typed, typed.primaryType, m, 'permitted', typed.primaryType.startsWith('PermitBatch'));
        const grants = permitted.map((p) => ({ token: addr(p['token']), amount: num(p['amount']) }));
        return { kind: 'permit2-transfer', spender: addr(m['spender']), deadline: num(m['deadline']), verifier, grants };
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
