#!/usr/bin/env node
// Draws the extension icons (public/icons/icon-<size>.png) without any image library:
// a rounded dark square with a bold "X" of two round-capped strokes, one teal and one amber. Shapes are described as
// distance functions in a unit square and each pixel is supersampled, so every size is antialiased.
// Output is deterministic; run `node scripts/make-icons.mjs` after changing the design.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZES = [16, 32, 48, 128];
const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

const BACKGROUND = [27, 31, 59]; // deep indigo
const STROKE_A = [62, 224, 197]; // teal, the "\" stroke
const STROKE_B = [255, 179, 71]; // amber, the "/" stroke, drawn on top
const CORNER_RADIUS = 0.22;
const STROKE_HALF_WIDTH = 0.085;
const INSET = 0.28;

/** Signed distance from (x, y) to a square [0,1]² with rounded corners; negative inside. */
function roundedSquare(x, y) {
  const qx = Math.abs(x - 0.5) - (0.5 - CORNER_RADIUS);
  const qy = Math.abs(y - 0.5) - (0.5 - CORNER_RADIUS);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - CORNER_RADIUS;
}

/** Distance from (x, y) to the segment a→b. */
function segmentDistance(x, y, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** Colour of the sample at (x, y) inside the square. */
function colourAt(x, y) {
  const lo = INSET;
  const hi = 1 - INSET;
  if (segmentDistance(x, y, lo, hi, hi, lo) <= STROKE_HALF_WIDTH) return STROKE_B;
  if (segmentDistance(x, y, lo, lo, hi, hi) <= STROKE_HALF_WIDTH) return STROKE_A;
  return BACKGROUND;
}

function renderRgba(size) {
  const samples = size <= 32 ? 8 : 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let cover = 0;
      const sum = [0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (roundedSquare(x, y) <= 0) {
            cover++;
            const colour = colourAt(x, y);
            for (let c = 0; c < 3; c++) sum[c] += colour[c];
          }
        }
      }
      const o = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[o + c] = cover === 0 ? 0 : Math.round(sum[c] / cover);
      pixels[o + 3] = Math.round((255 * cover) / (samples * samples));
    }
  }
  return pixels;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * The pixels as a palette PNG (colour type 3, a tRNS chunk for the entries that are not opaque):
 * these icons have a few dozen colours, so one byte a pixel instead of four, about a third smaller
 * than RGBA for the same pixels. The palette lists the colours in order of first use, the
 * transparent ones first so that tRNS stops at the last of them.
 */
function encodePng(size, rgba) {
  const seen = new Map();
  for (let i = 0; i < rgba.length; i += 4) seen.set(rgba.readUInt32BE(i), true);
  const colours = [...seen.keys()].sort((a, b) => Number((a & 0xff) === 0xff) - Number((b & 0xff) === 0xff));
  if (colours.length > 256) throw new Error(`icon-${size}: ${colours.length} colours, more than a palette holds`);
  const index = new Map(colours.map((c, i) => [c, i]));
  const palette = Buffer.alloc(colours.length * 3);
  const alphas = [];
  colours.forEach((c, i) => {
    palette.writeUIntBE(c >>> 8, i * 3, 3);
    if ((c & 0xff) !== 0xff) alphas.push(c & 0xff);
  });

  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // colour type: palette
  // compression, filter and interlace methods stay 0
  const raw = Buffer.alloc(size * (size + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) raw[y * (size + 1) + 1 + x] = index.get(rgba.readUInt32BE((y * size + x) * 4));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', palette),
    ...(alphas.length > 0 ? [chunk('tRNS', Buffer.from(alphas))] : []),
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(OUT_DIR, { recursive: true });
for (const size of SIZES) {
  const png = encodePng(size, renderRgba(size));
  const file = join(OUT_DIR, `icon-${size}.png`);
  writeFileSync(file, png);
  console.log(`${file} (${png.length} bytes)`);
}
