// MAIN-world content script, injected at document_start so it runs before the page's first script
// (built as a standalone classic script; see vite.config.ts). It installs the EIP-1193 provider,
// which talks to src/content through window.postMessage (src/shared/provider-protocol.ts).
import { installXpcWallet } from './install.js';

installXpcWallet(window);
