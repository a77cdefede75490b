import { crc32 } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { AppError } from '../errors.js';
import { LIMITS, MESSAGES } from '../validation/rules.js';

export const ALLOWED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Refuses decompression bombs: a 40 kB PNG can claim 50,000 x 50,000 pixels (LIMITS.imagePixels caps the area too). */
export const MAX_IMAGE_SIDE = 8000;
/** Truncated or damaged files, and files with something else hidden after the image (polyglots). */
export const IMAGE_DAMAGED_MESSAGE = MESSAGES.imageDamaged;

export interface CheckedImage {
  mimeType: string;
  byteSize: number;
  width: number;
  height: number;
  data: Buffer;
}

const imageError = (message: string) => new AppError('BAD_USER_INPUT', message, { fields: { image: [message] } });

/**
 * An upload is an image only if its bytes say so: the magic number (file-type) must be PNG, JPEG, GIF or WebP,
 * the header must parse to sane dimensions (image-size), and the container must be complete and end where the
 * file ends (imageEnd). The name and the declared type are ignored.
 */
export async function checkImage(data: Buffer | null | undefined): Promise<CheckedImage> {
  if (!data || data.length === 0) throw imageError(MESSAGES.imageType);
  if (data.length > LIMITS.imageBytes) throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.imageSize, { fields: { image: [MESSAGES.imageSize] } });
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !(ALLOWED_IMAGE_TYPES as readonly string[]).includes(detected.mime)) throw imageError(MESSAGES.imageType);
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(data);
  } catch {
    throw imageError(MESSAGES.imageType);
  }
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) throw imageError(MESSAGES.imageType);
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw imageError(MESSAGES.imageDimensions);
  if (width * height > LIMITS.imagePixels) throw imageError(MESSAGES.imagePixels);
  const end = imageEnd(data, detected.mime);
  // Nothing but the image: no missing tail, no HTML, script, archive or second image appended after its end.
  // Only padding may follow (some cameras fill the last block with 0x00 or 0xFF), which carries nothing.
  if (end === null || !data.subarray(end).every((b) => b === 0x00 || b === 0xff)) throw imageError(IMAGE_DAMAGED_MESSAGE);
  if (looksLikeMarkup(data)) throw imageError(IMAGE_DAMAGED_MESSAGE);
  return { mimeType: detected.mime, byteSize: data.length, width, height, data };
}

/**
 * Browsers that ignore nosniff look for HTML in a file's first bytes; an image has no reason to carry these
 * there (a PNG/HTML polyglot keeps its payload in an early text chunk). XML declarations are allowed: photos
 * carry XMP metadata.
 */
function looksLikeMarkup(data: Buffer): boolean {
  const head = data.subarray(0, 1024).toString('latin1').toLowerCase();
  return /<(script|html|svg|body|iframe|object|embed|!doctype)\b/.test(head);
}

/*
 * Where the image's container ends, or null when it is truncated or malformed. Hand-written because no
 * maintained npm package checks container completeness without decoding the pixels (decoding an 8000 x 8000
 * image would itself be the memory bomb we refuse); these walks read only headers and chunk lengths.
 */
export function imageEnd(data: Buffer, mime: string): number | null {
  try {
    switch (mime) {
      case 'image/png':
        return pngEnd(data);
      case 'image/jpeg':
        return jpegEnd(data);
      case 'image/gif':
        return gifEnd(data);
      case 'image/webp':
        return webpEnd(data);
      default:
        return null;
    }
  } catch {
    return null; // a read past the end: truncated
  }
}

/** PNG: chunks (length, type, data, CRC) from IHDR to IEND, every CRC checked. */
function pngEnd(d: Buffer): number | null {
  let p = 8;
  let first = true;
  while (p + 12 <= d.length) {
    const length = d.readUInt32BE(p);
    const type = d.toString('latin1', p + 4, p + 8);
    const end = p + 12 + length;
    if (length > 0x7fffffff || end > d.length) return null;
    if (first && type !== 'IHDR') return null;
    first = false;
    if (crc32(d.subarray(p + 4, p + 8 + length)) !== d.readUInt32BE(p + 8 + length)) return null;
    if (type === 'IEND') return end;
    p = end;
  }
  return null;
}

/** JPEG: marker segments from SOI, entropy-coded data after each SOS, to EOI. */
function jpegEnd(d: Buffer): number | null {
  if (d[0] !== 0xff || d[1] !== 0xd8) return null;
  let p = 2;
  while (p < d.length) {
    if (d[p] !== 0xff) return null;
    while (d[p] === 0xff) p++; // fill bytes
    if (p >= d.length) return null;
    const marker = d[p++];
    if (marker === 0xd9) return p; // EOI
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
    if (p + 2 > d.length) return null;
    const length = d.readUInt16BE(p);
    if (length < 2) return null;
    p += length;
    if (p > d.length) return null;
    if (marker === 0xda) {
      // Scan data runs until a marker that is neither a stuffed 0xFF00 nor a restart marker.
      while (p < d.length) {
        if (d[p] === 0xff && p + 1 < d.length && d[p + 1] !== 0x00 && !(d[p + 1] >= 0xd0 && d[p + 1] <= 0xd7) && d[p + 1] !== 0xff) break;
        p++;
      }
      if (p >= d.length - 1) return null;
    }
  }
  return null;
}

/** GIF: header, colour tables, extension and image blocks (each a chain of sub-blocks), to the trailer. */
function gifEnd(d: Buffer): number | null {
  if (d.length < 13) return null;
  let p = 13;
  const flags = d[10];
  if (flags & 0x80) p += 3 * (1 << ((flags & 0x07) + 1));
  const subBlocks = () => {
    for (;;) {
      if (p >= d.length) throw new RangeError('truncated');
      const size = d[p++];
      if (size === 0) return;
      p += size;
    }
  };
  while (p < d.length) {
    const block = d[p++];
    if (block === 0x3b) return p; // trailer
    if (block === 0x21) {
      p++; // label
      subBlocks();
    } else if (block === 0x2c) {
      if (p + 9 > d.length) return null;
      const local = d[p + 8];
      p += 9;
      if (local & 0x80) p += 3 * (1 << ((local & 0x07) + 1));
      p++; // LZW minimum code size
      subBlocks();
    } else {
      return null;
    }
  }
  return null;
}

/** WebP: a RIFF container whose declared size is the file (plus its pad byte). */
function webpEnd(d: Buffer): number | null {
  if (d.length < 12 || d.toString('latin1', 0, 4) !== 'RIFF' || d.toString('latin1', 8, 12) !== 'WEBP') return null;
  const size = d.readUInt32LE(4);
  const end = 8 + size + (size % 2);
  return end <= d.length ? end : null;
}
