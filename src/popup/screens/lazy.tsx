// The screens outside the popup's first load, each its own chunk (see components/Lazy.tsx): the
// first load holds the shell, Home, Receive and Unlock. While one loads, it shows its heading. Once Home is painted the app preloads the
// wallet's screens (preloadWalletScreens), so a tab or action opens at once.
import { lazyComponent } from '../components/Lazy.js';

export const Activity = lazyComponent(() => import('./Activity.js').then((m) => m.Activity), 'Activity');
export const Assets = lazyComponent(() => import('./Assets.js').then((m) => m.Assets), 'Assets');
export const Move = lazyComponent(() => import('./Move.js').then((m) => m.Move), 'Move between chains');
export const Onboarding = lazyComponent(() => import('./Onboarding.js').then((m) => m.Onboarding), 'XPC Wallet');
export const Send = lazyComponent(() => import('./Send.js').then((m) => m.Send), 'Send');
export const Settings = lazyComponent(() => import('./Settings.js').then((m) => m.Settings), 'Settings');
export const LazyTokens = lazyComponent(() => import('./Tokens.js').then((m) => m.Tokens), 'Tokens');
export const LazyStake = lazyComponent(() => import('./Stake.js').then((m) => m.Stake), 'Stake');
export const LazyTokenActivity = lazyComponent(() => import('./TokenActivity.js').then((m) => m.TokenActivity));

/** The screens an unlocked wallet's tabs and actions open (Stake and Tokens load when opened). */
export function preloadWalletScreens(): Promise<void> {
  return Promise.all([Send, Move, Assets, Activity, Settings].map((s) => s.preload())).then(() => undefined);
}
