// MAIN-world script, injected at document_start so it runs before the page's first script.
// Placeholder only: it marks the wallet's presence. The provider API (and any window.ethereum)
// arrives with the provider issue, talking to src/content through window.postMessage.

const xpcWallet = Object.freeze({ isXpcWallet: true as const });

if (!Object.prototype.hasOwnProperty.call(window, 'xpcWallet')) {
  Object.defineProperty(window, 'xpcWallet', {
    value: xpcWallet,
    writable: false,
    configurable: false,
    enumerable: false,
  });
}
