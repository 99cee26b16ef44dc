// The account the provider tests connect sites to (an HD account on the local network).
import type { AccountView } from '../../src/shared/messages.js';

export const ACCOUNT: AccountView = {
  id: 'acc1',
  name: 'Account 1',
  kind: 'hd',
  index: 0,
  xAddress: 'X-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqd9ggds',
  pAddress: 'P-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqd9ggds',
  cAddress: '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC',
  cBech32Address: 'C-local1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqd9ggds',
};
