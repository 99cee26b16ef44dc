// A deterministic zip writer, and a strict reader for checking what it wrote.
//
// Same input, same bytes: entries sorted by name, one fixed timestamp for all of them, fixed
// permissions (0644, or 0755 for executables), no directory entries, no extra fields, no comment,
// nothing from the file system (owner, times, umask). Each entry is deflated at level 9 or stored
// when deflate would not make it smaller. Node's zlib does the deflating: its output is fixed for a
// given Node version (docs/packaging.md says what that means for verifying a package).
// No zip64: an archive over 4 GB or 65535 entries is refused, far beyond what we pack.
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIZE = 46;
const END_SIZE = 22;
const STORED = 0;
const DEFLATED = 8;
/** Zip 2.0: what deflate needs; every reader knows it. */
const VERSION_NEEDED = 20;
/** Made by Unix (3) so readers take the permission bits from the high half of the external attributes. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** General purpose flag bit 11: the name is UTF-8. Set only for names that are not plain ASCII. */
const UTF8_NAME = 0x0800;
const FILE_MODE = 0o100644;
const EXECUTABLE_MODE = 0o100755;
const MAX_U16 = 0xffff;
const MAX_U32 = 0xffffffff;

/**
 * The date and time fields of a zip entry for `date`, read in UTC so the bytes do not depend on the
 * machine's time zone. DOS time counts seconds in steps of two and years from 1980 to 2107.
 */
export function dosDateTime(date) {
  const year = date.getUTCFullYear();
  if (!Number.isFinite(year) || year < 1980 || year > 2107) {
    throw new RangeError(`zip: a zip entry's date must be between 1980 and 2107, got ${date.toISOString?.() ?? date}`);
  }
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

/** Refuses a name an unzip could place outside its folder, or that two systems would read apart. */
function checkName(name) {
  const segments = name.split('/');
  const bad =
    name === '' ||
    name.startsWith('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    segments.some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new Error(`zip: unsafe entry name ${JSON.stringify(name)}`);
}

/**
 * One zip archive holding `files` ({ name, data, executable? }), every entry dated `mtime`.
 * Names use "/" and name files only (folders follow from them). Returns the archive's bytes.
 */
export function writeZip(files, { mtime }) {
  const { time, date } = dosDateTime(mtime);
  const entries = files.map((file) => {
    checkName(file.name);
    const name = Buffer.from(file.name, 'utf8');
    const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    const deflated = deflateRawSync(data, { level: 9 });
    const method = deflated.length < data.length ? DEFLATED : STORED;
    return {
      name,
      flags: /^[\x20-\x7e]*$/.test(file.name) ? 0 : UTF8_NAME,
      method,
      crc: crc32(data),
      size: data.length,
      body: method === DEFLATED ? deflated : data,
      mode: file.executable ? EXECUTABLE_MODE : FILE_MODE,
    };
  });
  entries.sort((a, b) => Buffer.compare(a.name, b.name));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i].name.equals(entries[i - 1].name)) throw new Error(`zip: two entries named ${entries[i].name}`);
  }
  if (entries.length > MAX_U16) throw new Error(`zip: ${entries.length} entries is more than a zip without zip64 holds`);

  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const local = Buffer.alloc(LOCAL_HEADER_SIZE);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(e.flags, 6);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.body.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(e.name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, e.name, e.body);

    const central = Buffer.alloc(CENTRAL_HEADER_SIZE);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION_MADE_BY, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(e.flags, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.body.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(e.name.length, 28);
    // Extra field, comment, disk number and internal attributes stay 0.
    central.writeUInt32LE(e.mode * 0x10000, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, e.name);

    offset += LOCAL_HEADER_SIZE + e.name.length + e.body.length;
    if (offset > MAX_U32) throw new Error('zip: archive over 4 GB needs zip64');
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(END_SIZE);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/**
 * Every entry of a zip as this module writes it: { name, data, mode, mtime, method }, in archive
 * order. Checks what it reads (signatures, local and central headers agreeing, sizes, CRC-32) and
 * throws on anything else, such as a comment, zip64, encryption or data descriptors.
 */
export function readZip(zip) {
  const fail = (msg) => {
    throw new Error(`zip: ${msg}`);
  };
  if (zip.length < END_SIZE) fail('too short to be a zip');
  const endAt = zip.length - END_SIZE;
  if (zip.readUInt32LE(endAt) !== END_OF_CENTRAL_DIRECTORY) fail('no end of central directory record at the end (a comment?)');
  const count = zip.readUInt16LE(endAt + 10);
  const centralSize = zip.readUInt32LE(endAt + 12);
  let at = zip.readUInt32LE(endAt + 16);
  if (at + centralSize !== endAt) fail('central directory is not where the end record says');

  const entries = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) fail(`central header ${i} missing`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const time = zip.readUInt16LE(at + 12);
    const date = zip.readUInt16LE(at + 14);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + CENTRAL_HEADER_SIZE, at + CENTRAL_HEADER_SIZE + nameLength);
    if ((flags & ~UTF8_NAME) !== 0) fail(`${name}: flags ${flags.toString(16)} (encryption or data descriptor)`);
    if (method !== STORED && method !== DEFLATED) fail(`${name}: compression method ${method}`);

    const local = zip.subarray(localAt, localAt + LOCAL_HEADER_SIZE);
    if (local.readUInt32LE(0) !== LOCAL_HEADER) fail(`${name}: local header missing`);
    const sameAsCentral =
      local.readUInt16LE(6) === flags &&
      local.readUInt16LE(8) === method &&
      local.readUInt16LE(10) === time &&
      local.readUInt16LE(12) === date &&
      local.readUInt32LE(14) === crc &&
      local.readUInt32LE(18) === compressedSize &&
      local.readUInt32LE(22) === size &&
      local.readUInt16LE(26) === nameLength;
    if (!sameAsCentral) fail(`${name}: local header disagrees with the central directory`);
    const bodyAt = localAt + LOCAL_HEADER_SIZE + nameLength + local.readUInt16LE(28);
    if (zip.toString('utf8', localAt + LOCAL_HEADER_SIZE, localAt + LOCAL_HEADER_SIZE + nameLength) !== name) {
      fail(`${name}: local header names another file`);
    }
    const body = zip.subarray(bodyAt, bodyAt + compressedSize);
    const data = method === DEFLATED ? inflateRawSync(body) : Buffer.from(body);
    if (data.length !== size) fail(`${name}: ${data.length} bytes, the header says ${size}`);
    if (crc32(data) !== crc) fail(`${name}: CRC-32 mismatch`);

    const mtime = new Date(Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2));
    entries.push({ name, data, mode, mtime, method });
    at += CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
  }
  return entries;
}
