import type { AttachmentView } from '../entryTypes';

/** "1.2 MB", "34 kB". */
export function sizeWords(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} kB`;
}

/** A reply's or a message's files: images as thumbnails that open the file, others as download links. */
export function Attachments({ files }: { files: readonly AttachmentView[] | undefined }) {
  if (!files?.length) return null;
  return (
    <ul className="timeline-attachments" aria-label="Attachments">
      {files.map((f) => (
        <li key={f.id}>
          {f.mimeType.startsWith('image/') ? (
            <a href={f.url} target="_blank" rel="noreferrer">
              <img src={f.url} alt={f.filename} className="timeline-attachment-image" loading="lazy" />
            </a>
          ) : (
            <a href={f.url} download={f.filename}>
              {f.filename}
            </a>
          )}{' '}
          <span className="muted">({sizeWords(f.byteSize)})</span>
        </li>
      ))}
    </ul>
  );
}
