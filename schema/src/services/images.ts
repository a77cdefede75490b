import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import { AppError } from '../errors.js';
import { LIMITS, MESSAGES } from '../validation/rules.js';

export const ALLOWED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
/** Refuses decompression bombs: a 40 kB PNG can claim 50,000 x 50,000 pixels. */
export const MAX_IMAGE_SIDE = 8000;

export interface CheckedImage {
  mimeType: string;
  byteSize: number;
  width: number;
  height: number;
  data: Buffer;
}

const imageError = (message: string) => new AppError('BAD_USER_INPUT', message, { fields: { image: [message] } });

/**
 * An upload is an image only if its bytes say so: the magic number (file-type) must be PNG, JPEG, GIF or WebP
 * and the header must parse to sane dimensions (image-size). The name and the declared type are ignored.
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
  return { mimeType: detected.mime, byteSize: data.length, width, height, data };
}
