import type { FileUpload } from 'graphql-upload-minimal';
import { AppError } from '../errors.js';
import { LIMITS, MESSAGES } from '../validation/rules.js';

/** Reads an Upload into memory, stopping one byte past the limit so an over-size file is refused early. */
export async function readUpload(upload: Promise<FileUpload> | FileUpload | null | undefined): Promise<Buffer | null> {
  if (upload == null) return null;
  const file = await upload;
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of file.createReadStream()) {
      total += (chunk as Buffer).length;
      if (total > LIMITS.imageBytes) throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.imageSize, { fields: { image: [MESSAGES.imageSize] } });
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // graphql-upload-minimal ends the stream with an error when maxFileSize is passed.
    throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.imageSize, { fields: { image: [MESSAGES.imageSize] } });
  }
  return Buffer.concat(chunks);
}
