// A small QR code reader for tests, written from the QR code standard (ISO/IEC 18004), apart from the
// library that draws them: it reads the modules from the SVG the popup renders (path "Mx yh1v1h-1z"
// per dark module), then the format, the unmasked codewords, their Reed-Solomon check and the text.
// Versions 1-10 (what an address needs), every error-correction level, numeric/alphanumeric/byte.

/** How many light modules the rendered code has around it (the standard asks for 4). */
export function quietZoneOfSvg(svg: SVGSVGElement): number {
  const [, , w] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
  return (w! - modulesOfSvg(svg).length) / 2;
}

/** The dark modules of a rendered QR code, quiet zone cut off (the top-left finder starts at [0][0]). */
export function modulesOfSvg(svg: SVGSVGElement): boolean[][] {
  const [, , w, h] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number);
  if (w !== h || !w) throw new Error('not a square viewBox');
  const dark = [...(svg.querySelector('path')?.getAttribute('d') ?? '').matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const border = Math.min(...dark.map(([x]) => x));
  if (border !== Math.min(...dark.map(([, y]) => y))) throw new Error('uneven quiet zone');
  const size = w - 2 * border;
  const grid = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  for (const [x, y] of dark) grid[y - border]![x - border] = true;
  return grid;
}

// [L, M, Q, H] by version 1..10: EC codewords per block, and blocks.
const ECC_PER_BLOCK = [
  [7, 10, 15, 20, 26, 18, 20, 24, 30, 18],
  [10, 16, 26, 18, 24, 16, 18, 22, 22, 26],
  [13, 22, 18, 26, 18, 24, 18, 22, 20, 24],
  [17, 28, 22, 16, 22, 28, 26, 26, 24, 28],
];
const BLOCKS = [
  [1, 1, 1, 1, 1, 2, 2, 2, 2, 4],
  [1, 1, 1, 2, 2, 4, 4, 4, 5, 5],
  [1, 1, 2, 2, 4, 4, 6, 6, 8, 8],
  [1, 1, 2, 4, 4, 4, 5, 6, 8, 8],
];
/** Format bits of each level (the standard's 2-bit indicator). */
const LEVEL_BITS = { L: 1, M: 0, Q: 3, H: 2 } as const;
type Level = keyof typeof LEVEL_BITS;

function formatCode(level: Level, mask: number): number {
  const data = (LEVEL_BITS[level] << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412;
}

function alignmentCenters(version: number, size: number): number[] {
  if (version === 1) return [];
  const n = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (n * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < n; pos -= step) out.splice(1, 0, pos);
  return out;
}

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

// GF(256) with the QR polynomial x^8+x^4+x^3+x^2+1.
function gfMul(a: number, b: number): number {
  let r = 0;
  for (let i = 7; i >= 0; i--) {
    r = (r << 1) ^ ((r >>> 7) * 0x11d);
    r ^= ((b >>> i) & 1) * a;
  }
  return r & 0xff;
}

/** The EC codewords the standard gives these data codewords. */
function reedSolomon(data: number[], degree: number): number[] {
  let gen = [1];
  for (let i = 0, root = 1; i < degree; i++, root = gfMul(root, 2)) {
    const next = new Array<number>(gen.length + 1).fill(0);
    gen.forEach((c, j) => {
      next[j] = next[j]! ^ c;
      next[j + 1] = next[j + 1]! ^ gfMul(c, root);
    });
    gen = next;
  }
  const rem = new Array<number>(degree).fill(0);
  for (const b of data) {
    const factor = b ^ rem.shift()!;
    rem.push(0);
    for (let i = 0; i < degree; i++) rem[i] = rem[i]! ^ gfMul(gen[i + 1]!, factor);
  }
  return rem;
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:';

/** The text a QR code holds, with its level; throws where the code does not follow the standard. */
export function decodeQr(grid: boolean[][]): { text: string; level: Level; version: number } {
  const size = grid.length;
  const version = (size - 17) / 4;
  if (!Number.isInteger(version) || version < 1 || version > 10) throw new Error(`size ${size} is no version 1-10`);
  const at = (x: number, y: number) => grid[y]![x]!;
  // Format: both copies must name the same level and mask, each exactly a valid code.
  let first = 0;
  let second = 0;
  const firstAt: [number, number][] = [[8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]];
  firstAt.forEach(([x, y], i) => (first |= Number(at(x, y)) << i));
  for (let i = 0; i < 8; i++) second |= Number(at(size - 1 - i, 8)) << i;
  for (let i = 8; i < 15; i++) second |= Number(at(8, size - 15 + i)) << i;
  if (first !== second) throw new Error('the two format copies differ');
  let level: Level | undefined;
  let mask = -1;
  for (const l of Object.keys(LEVEL_BITS) as Level[]) for (let m = 0; m < 8; m++) if (formatCode(l, m) === first) [level, mask] = [l, m];
  if (level === undefined) throw new Error('no valid format information');
  if (!at(8, size - 8)) throw new Error('the dark module is missing');

  // Function patterns: finders with separators and format areas, timing, alignment, version info.
  const fn = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  const mark = (x0: number, y0: number, w: number, h: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) fn[y]![x] = true;
  };
  mark(0, 0, 9, 9);
  mark(size - 8, 0, 8, 9);
  mark(0, size - 8, 9, 8);
  mark(6, 0, 1, size);
  mark(0, 6, size, 1);
  const centers = alignmentCenters(version, size);
  for (const cy of centers) {
    for (const cx of centers) {
      const corner = (cx === 6 && cy === 6) || (cx === 6 && cy === size - 7) || (cx === size - 7 && cy === 6);
      if (!corner) mark(cx - 2, cy - 2, 5, 5);
    }
  }
  if (version >= 7) {
    mark(size - 11, 0, 3, 6);
    mark(0, size - 11, 6, 3);
  }

  // Codewords in the standard's two-column zigzag, unmasked.
  const bits: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
        if (!fn[y]![x]) bits.push(Number(at(x, y) !== MASKS[mask]!(x, y)));
      }
    }
  }
  const total = Math.floor(bits.length / 8);
  const codewords = Array.from({ length: total }, (_, i) => bits.slice(i * 8, i * 8 + 8).reduce((a, b) => (a << 1) | b, 0));

  // Blocks: data interleaved column by column (short blocks first), then EC the same way.
  const li = ['L', 'M', 'Q', 'H'].indexOf(level);
  const ecc = ECC_PER_BLOCK[li]![version - 1]!;
  const nBlocks = BLOCKS[li]![version - 1]!;
  const shortLen = Math.floor(total / nBlocks);
  const nShort = nBlocks - (total % nBlocks);
  const dataLen = (b: number) => shortLen - ecc + (b < nShort ? 0 : 1);
  const blocks = Array.from({ length: nBlocks }, () => [] as number[]);
  let k = 0;
  for (let i = 0; i < shortLen - ecc + 1; i++) for (let b = 0; b < nBlocks; b++) if (i < dataLen(b)) blocks[b]!.push(codewords[k++]!);
  const eccs = Array.from({ length: nBlocks }, () => [] as number[]);
  for (let i = 0; i < ecc; i++) for (let b = 0; b < nBlocks; b++) eccs[b]!.push(codewords[k++]!);
  blocks.forEach((data, b) => {
    if (reedSolomon(data, ecc).join() !== eccs[b]!.join()) throw new Error(`block ${b}: error correction codewords do not match its data`);
  });

  // Segments until the terminator (or the end).
  const stream = blocks.flat().flatMap((byte) => Array.from({ length: 8 }, (_, i) => (byte >>> (7 - i)) & 1));
  let pos = 0;
  const read = (n: number) => {
    if (pos + n > stream.length) throw new Error('the data runs past its codewords');
    let v = 0;
    for (let i = 0; i < n; i++) v = (v << 1) | stream[pos++]!;
    return v;
  };
  const bytes: number[] = [];
  while (pos + 4 <= stream.length) {
    const mode = read(4);
    if (mode === 0) break;
    if (mode === 4) {
      const n = read(version < 10 ? 8 : 16);
      for (let i = 0; i < n; i++) bytes.push(read(8));
    } else if (mode === 2) {
      let n = read(version < 10 ? 9 : 11);
      for (; n >= 2; n -= 2) {
        const v = read(11);
        bytes.push(ALNUM.charCodeAt(Math.floor(v / 45)), ALNUM.charCodeAt(v % 45));
      }
      if (n === 1) bytes.push(ALNUM.charCodeAt(read(6)));
    } else if (mode === 1) {
      let n = read(version < 10 ? 10 : 12);
      for (; n >= 3; n -= 3) bytes.push(...[...String(read(10)).padStart(3, '0')].map((c) => c.charCodeAt(0)));
      if (n === 2) bytes.push(...[...String(read(7)).padStart(2, '0')].map((c) => c.charCodeAt(0)));
      if (n === 1) bytes.push(String(read(4)).charCodeAt(0));
    } else {
      throw new Error(`mode ${mode} is not read here`);
    }
  }
  return { text: new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes)), level, version };
}
