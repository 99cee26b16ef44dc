// The C-Chain token screens, loaded on first use (their own chunk; see components/Lazy.tsx).
import { lazyComponent } from '../components/Lazy.js';

export const LazyTokens = lazyComponent(() => import('./Tokens.js').then((m) => m.Tokens));
export const LazyTokenActivity = lazyComponent(() => import('./TokenActivity.js').then((m) => m.TokenActivity));
