// The most a request may pay in fees, as the user approved it: `maxFee` in nAVAX (X, P, atomic),
// `maxFeeWei` in wei (C-Chain EVM). Kept apart from validate-fields.ts, which the popup loads too.
import type { Amount } from './messages.js';
import { amount, type Fields, U256_MAX, U64_MAX } from './validate-fields.js';

export const maxFee = (f: Fields): Amount => amount(f.maxFee, 'maxFee', U64_MAX, false);
export const maxFeeWei = (f: Fields): Amount => amount(f.maxFeeWei, 'maxFeeWei', U256_MAX, false);
