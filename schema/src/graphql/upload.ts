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

/**
 * Reads the files of one reply: each one's client name and bytes, stopping one byte past the size limit. Refusals
 * are BAD_USER_INPUT on `field` (the count first, before any byte is read); the checks by content are the service's
 * (services/replyAttachments.ts).
 */
export async function readUploadFiles(
  uploads: readonly (Promise<FileUpload> | FileUpload | null | undefined)[] | null | undefined,
  field: string,
  maxFiles: number,
): Promise<{ filename: string; data: Buffer }[]> {
  if (!uploads) return [];
  const refuse = (message: string) => new AppError('BAD_USER_INPUT', message, { fields: { [field]: [message] } });
  if (uploads.length > maxFiles) throw refuse(MESSAGES.attachmentCount);
  const files: { filename: string; data: Buffer }[] = [];
  for (const upload of uploads) {
    if (upload == null) throw refuse(MESSAGES.attachmentType);
    const file = await upload;
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of file.createReadStream()) {
        total += (chunk as Buffer).length;
        if (total > LIMITS.imageBytes) throw refuse(MESSAGES.attachmentSize);
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw refuse(MESSAGES.attachmentSize); // the stream ends with an error past maxFileSize
    }
    files.push({ filename: file.filename, data: Buffer.concat(chunks) });
  }
  return files;
}
