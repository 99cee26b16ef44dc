// The token screens' tests share one ERC-20 (TUSD, 6 decimals, 5 held), the reviewed selection, a
// fee quote of a given most, and typing into a field.
import { fireEvent, screen } from '@testing-library/preact';
import type { EvmFeeQuote, TokenView } from '../../../src/shared/messages.js';

export const TOKEN = '0x52C84043CD9c865236f11d9Fc9F56aa003c1f922';
export const SELECTION = { accountId: 'acc-1', networkId: 'local' };
export const HASH = `0x${'cd'.repeat(32)}`;
export const clean = { altered: false, posesAsNative: false };
export const erc20: TokenView = { address: TOKEN, standard: 'erc20', name: 'Test Dollar', symbol: 'TUSD', decimals: 6, checks: clean, addedBy: 'wallet', balance: '5000000' };
export const quote = (maxFee: bigint): EvmFeeQuote => ({ gasLimit: '52000', maxFeePerGas: (maxFee / 52000n).toString(), maxPriorityFeePerGas: '1', maxFee: maxFee.toString(), likelyFee: (maxFee / 4n).toString() });

export function type(label: string | RegExp, value: string) {
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
}
