import type { FileUpload } from 'graphql-upload-minimal';
import { AppError } from '../errors.js';
import { LIMITS, MESSAGES } from '../validation/rules.js';

type UploadArg = Promise<FileUpload> | FileUpload | null | undefined;

/** One file's bytes, stopping one byte past the size limit so an over-size file is refused early (`tooLarge`). */
async function readLimited(file: FileUpload, tooLarge: () => AppError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of file.createReadStream()) {
      total += (chunk as Buffer).length;
      if (total > LIMITS.imageBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw tooLarge(); // graphql-upload-minimal ends the stream with an error when maxFileSize is passed
  }
  return Buffer.concat(chunks);
}

/** Reads an Upload (a ticket's image) into memory; over the limit it is PAYLOAD_TOO_LARGE on `image`. */
export async function readUpload(upload: UploadArg): Promise<Buffer | null> {
  if (upload == null) return null;
  return readLimited(await upload, () => new AppError('PAYLOAD_TOO_LARGE', MESSAGES.imageSize, { fields: { image: [MESSAGES.imageSize] } }));
}

/**
 * Reads the files of one reply: each one's client name and bytes. Refusals are BAD_USER_INPUT on `field` (the
 * count first, before any byte is read); the checks by content are the service's (services/replyAttachments.ts).
 */
export async function readUploadFiles(
  uploads: readonly UploadArg[] | null | undefined,
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
    files.push({ filename: file.filename, data: await readLimited(file, () => refuse(MESSAGES.attachmentSize)) });
  }
  return files;
}
