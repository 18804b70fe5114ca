// Uploads: reserve (POST /media/uploads), then PUT the bytes to the signed address with XHR, whose
// progress events drive the bar. A cut transfer can be retried: the same address while it is valid,
// else a new reservation.
import { useCallback, useState } from 'react';
import { api, call, Failure } from '../api.ts';

export interface Upload {
  key: string;
  file: File;
  /** 0 to 1. */
  progress: number;
  state: 'sending' | 'done' | 'failed';
  error?: Failure;
  mediaId?: string;
  uploadUrl?: string;
}

function put(url: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON: described below */
      }
      reject(
        new Failure(
          String(body.code ?? 'upload_failed'),
          String(body.message ?? `The upload was refused (${xhr.status}).`),
          String(body.hint ?? 'Try again.'),
          xhr.status,
          body,
        ),
      );
    };
    xhr.onerror = () =>
      reject(
        new Failure('upload_cut', 'The upload was cut before the file arrived.', 'Check your connection and retry.'),
      );
    xhr.send(file);
  });
}

/** Uploads in this page, with start and retry; `onDone` gets each finished file's media id. */
export function useUploads(onDone?: (mediaId: string) => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const patch = useCallback((key: string, change: Partial<Upload>) => {
    setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...change } : u)));
  }, []);

  const send = useCallback(
    async (upload: Upload, folderId: string | undefined, reuse: boolean) => {
      const { key, file } = upload;
      patch(key, { state: 'sending', progress: 0, error: undefined });
      let { mediaId, uploadUrl } = upload;
      try {
        if (!reuse || !uploadUrl) {
          const reservation = await call(
            api.POST('/media/uploads', {
              body: {
                filename: file.name,
                mime: file.type || 'application/octet-stream',
                size: file.size,
                ...(folderId ? { folderId } : {}),
              },
            }),
          );
          ({ mediaId, uploadUrl } = reservation);
          patch(key, { mediaId, uploadUrl });
        }
        await put(uploadUrl!, file, (progress) => patch(key, { progress }));
        patch(key, { state: 'done', progress: 1 });
        onDone?.(mediaId!);
      } catch (err) {
        const error = err instanceof Failure ? err : new Failure('upload_failed', String(err), 'Try again.');
        // An expired or used address cannot be reused: the retry reserves a new one.
        patch(key, {
          state: 'failed',
          error,
          ...(error.status === 410 || error.status === 403 ? { uploadUrl: undefined } : {}),
        });
      }
    },
    [patch, onDone],
  );

  const start = useCallback(
    (files: FileList | File[], folderId?: string) => {
      const fresh = [...files].map((file) => ({
        key: `${file.name}-${file.size}-${Math.random().toString(36).slice(2)}`,
        file,
        progress: 0,
        state: 'sending' as const,
      }));
      setUploads((all) => [...fresh, ...all]);
      for (const u of fresh) void send(u, folderId, false);
    },
    [send],
  );

  const retry = useCallback((upload: Upload, folderId?: string) => void send(upload, folderId, true), [send]);
  const clearDone = useCallback(() => setUploads((all) => all.filter((u) => u.state !== 'done')), []);
  return { uploads, start, retry, clearDone };
}
