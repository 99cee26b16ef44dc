// File listing shared by the build check and the size budget.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`, recursively, sorted. */
export function walk(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out.sort();
}
