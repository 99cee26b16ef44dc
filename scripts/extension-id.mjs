// Chromium's ID for an unpacked extension: sha256 of its absolute path, the first 32 hex digits
// written with the letters a–p. `npm start` opens the wallet's page by it; the e2e suite checks
// it against the ID the browser reports.
import { createHash } from 'node:crypto';

/** @param {string} path absolute path of the extension folder, as given to --load-extension */
export function unpackedExtensionId(path) {
  const hex = createHash('sha256').update(path).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}
