/** Chromium's ID for an unpacked extension loaded from `path` (see extension-id.mjs). */
export function unpackedExtensionId(path: string): string;
