/** Every file below `dir`, recursively, sorted (see files.mjs). */
export function walk(dir: string): string[];
