// A destination address field for one chain: says as the user types when the address belongs to
// another chain or another network.
import { type AddressKind, checkAddress } from '../checks.js';
import { TextField } from './Field.js';

const PLACEHOLDER: Record<AddressKind, (hrp: string) => string> = {
  X: (hrp) => `X-${hrp}1…`,
  P: (hrp) => `P-${hrp}1…`,
  'C-bech32': (hrp) => `C-${hrp}1…`,
  'C-evm': () => '0x…',
};

const KIND_LABEL: Record<AddressKind, string> = {
  X: 'X-Chain address',
  P: 'P-Chain address',
  'C-bech32': 'C-Chain bech32 address',
  'C-evm': 'C-Chain address',
};

export interface AddressInputProps {
  label?: string;
  value: string;
  onInput: (text: string) => void;
  kind: AddressKind;
  hrp: string;
  error?: string | undefined;
  /** The wallet's own address of this kind: one typed is said to be it. */
  own?: string | undefined;
}

/** The same address whatever the case (bech32 may be all capitals; 0x is case-checksummed). */
export const sameAddress = (a: string, b: string | undefined): boolean => b !== undefined && a.toLowerCase() === b.toLowerCase();

/** What a send to the wallet's own address does. */
export const OWN_ADDRESS = 'This is your own address: what you send stays in this account, and only the fee is spent.';

export function AddressInput(p: AddressInputProps) {
  const check = checkAddress(p.value, p.kind, p.hrp);
  const shown = p.error ?? (p.value.trim() !== '' && !check.ok ? check.error : undefined);
  return (
    <TextField
      label={p.label ?? `To (${KIND_LABEL[p.kind]})`}
      value={p.value}
      onInput={p.onInput}
      placeholder={PLACEHOLDER[p.kind](p.hrp)}
      mono
      multiline
      rows={2}
      error={shown}
      hint={check.ok && !p.error ? (sameAddress(check.value, p.own) ? OWN_ADDRESS : `✓ ${KIND_LABEL[p.kind]} on "${p.hrp}"`) : undefined}
    />
  );
}
