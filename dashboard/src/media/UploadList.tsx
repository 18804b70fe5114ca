// One progress bar per file being uploaded, with its error and a retry.
import { bytesText } from '../format.ts';
import { Button, ErrorNote } from '../ui.tsx';
import type { Upload } from './uploads.ts';

export function UploadList({ uploads, onRetry }: { uploads: Upload[]; onRetry: (u: Upload) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul className="uploads" aria-label="Uploads">
      {uploads.map((u) => {
        const percent = Math.round(u.progress * 100);
        return (
          <li key={u.key} className={`upload upload-${u.state}`}>
            <div className="upload-head">
              <span className="upload-name">{u.file.name}</span>
              <span className="muted">
                {bytesText(u.file.size)} · {u.state === 'failed' ? 'failed' : `${percent}%`}
              </span>
            </div>
            <progress max={100} value={percent} aria-label={`Upload of ${u.file.name}`} />
            {u.state === 'failed' && (
              <div className="upload-failed">
                <ErrorNote error={u.error} />
                <Button onClick={() => onRetry(u)}>
                  Retry<span className="sr-only"> {u.file.name}</span>
                </Button>
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
