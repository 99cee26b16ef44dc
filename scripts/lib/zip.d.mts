/** Types for zip.mjs (a deterministic zip writer and the strict reader that checks it). */
export interface ZipInput {
  name: string;
  data: Uint8Array;
  executable?: boolean;
}
export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Unix mode from the external attributes: 0o100644 or 0o100755 as written here. */
  mode: number;
  mtime: Date;
  /** 0 stored, 8 deflated. */
  method: number;
}
export function dosDateTime(date: Date): { time: number; date: number };
export function writeZip(files: readonly ZipInput[], options: { mtime: Date }): Buffer;
export function readZip(zip: Buffer): ZipEntry[];
