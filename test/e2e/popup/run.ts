// What the popup-UI steps (steps-*.ts) share in one browser's run: the browser under test (the
// little each browser does its own way), the popup driver, the node's proxy, the fees of the
// local network, what the wallet is (its phrase, addresses) and the balances it must show.
import type { KeyPair } from '../../../src/core/keys.js';
import type { ConsoleLog } from '../artifacts.js';
import type { RpcProxy } from '../loopback.js';
import type { Totals } from './amounts.js';
import type { PageAdapter, PopupDriver } from './driver.js';

/** One browser as the shared popup-UI suite (suite.ts) needs it. */
export interface BrowserUnderTest {
  /** Names the artifacts (`<name>-ui-…`) and the suite. */
  readonly name: 'chromium' | 'firefox';
  readonly log: ConsoleLog;
  /** Starts the browser with a fresh profile and the built extension, the popup page open in a tab of the popup's size (400×600). */
  launch(): Promise<PageAdapter>;
  /** A second browser with its own fresh profile (where the wallet is restored from its phrase). */
  launchSecond(): Promise<PageAdapter>;
  /** Another popup tab in that second browser: another window of the same wallet. */
  openSecondAgain(): Promise<PageAdapter>;
  /**
   * Stops the extension's background (Chromium: the service worker, through DevTools; Firefox: the
   * event page, as about:debugging's Terminate does) and resolves once it is down.
   */
  stopBackground(): Promise<StoppedBackground>;
  /** Saves what only this browser keeps, after a failed step (Firefox: its stdout). */
  saveFailure?(name: string): void;
  /** Both browsers, by PID; their profiles go too. */
  close(): Promise<void>;
}

export interface StoppedBackground {
  /** Whether a background ran again since the stop. */
  ranAgain(): Promise<boolean>;
  /** Lets go of what watched it. */
  release(): Promise<void>;
}

/** The state one browser's steps build on, in order. */
export interface UiRun {
  readonly browser: BrowserUnderTest;
  readonly log: ConsoleLog;
  /** Artifacts' prefix: `<browser>-ui-`. */
  readonly prefix: string;
  ui: PopupDriver;
  proxy: RpcProxy;
  avax: string;
  xTxFee: bigint;
  createAssetFee: bigint;
  /** The phrase as the onboarding screen showed it. */
  words: string[];
  xAddress: string;
  /** The phrase's first X/P key (account 0, receive 0) and its C-Chain address, derived by the test. */
  receiveKey: KeyPair;
  cAddress: string;
  /** What the home screen must show after each step. */
  expected: Totals;
  /** How many moves this wallet started (each stays listed on the Move screen). */
  movesStarted: number;
}
