import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then a 12-bit sequence that keeps ids of the
 * same millisecond increasing within this process, then random bits. Used where rows must be
 * inserted in bulk with ids known in advance; ordering matches Prisma's uuid(7) defaults.
 */
export function uuidv7(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1; // 4096 ids in one millisecond: borrow the next one
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = randomBytes(2).readUInt16BE() & 0x3ff; // leave room to count up
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
