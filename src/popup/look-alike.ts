// Names that pose as AVAX: kept apart from checks.ts so Home's asset labels load without the
// address and amount checks (and the codecs they need).

// Letters from other scripts that render like A, V and X.
const CONFUSABLE: Record<string, string> = {
  'А': 'A', 'а': 'A', 'Α': 'A', 'α': 'A', 'Ꭺ': 'A',
  'В': 'B', 'Ѵ': 'V', 'ѵ': 'V', 'Ⅴ': 'V', 'ⅴ': 'V', 'ν': 'V',
  'Х': 'X', 'х': 'X', 'Χ': 'X', 'χ': 'X', 'Ⅹ': 'X', 'ⅹ': 'X',
};

/** True when a name or symbol reads as "AVAX" once case, spacing and look-alike letters are ignored. */
export function looksLikeAvax(text: string): boolean {
  const folded = [...text.normalize('NFKC')].map((c) => CONFUSABLE[c] ?? c.toUpperCase()).join('');
  return folded.replace(/[^A-Z]/g, '').includes('AVAX');
}
