// The two signed addresses outside /v1, which carry no credential: the token in the path is the
// permission. PUT /uploads/<token> receives a reservation's bytes, streamed to storage and never
// held in memory; GET /media-files/<token> serves stored bytes (disk storage; S3 presigns its own).
import express, { type Request, type Response } from 'express';
import { environmentFault } from '../db/connect.ts';
import { ApiError, errorBody, isDiskFull, notFound } from '../domain/errors.ts';
import { normalizeMime } from '../domain/mediaTypes.ts';
import { readUploadToken } from '../media/uploadAddress.ts';
import { Interrupted } from '../media/work.ts';
import type { MinimumRate } from '../runtime/config.ts';
import type { Services } from '../runtime/services.ts';
import { watchRate } from './uploadRate.ts';

const badAddress = (what: string) =>
  new ApiError(
    403,
    'address_invalid',
    `This ${what} address is not valid: its signature does not match (altered or truncated).`,
    'Use the address exactly as Herald returned it.',
  );

const expiredAddress = (what: string, hint: string) =>
  new ApiError(410, 'address_expired', `This ${what} address has expired.`, hint);

const alreadyUploaded = (mediaId: string) =>
  new ApiError(
    409,
    'already_uploaded',
    `The bytes of ${mediaId} were already uploaded; an upload address works once.`,
    `Continue by polling GET /v1/media/${mediaId} until its status is ready.`,
  );

const tooSlow = (rate: MinimumRate) =>
  new ApiError(
    408,
    'upload_too_slow',
    `Fewer than ${rate.bytes} bytes of the file arrived in ${rate.windowMs / 1000} seconds; nothing was kept.`,
    'Send the whole file again to the same address before it expires, over a connection that keeps that pace.',
  );

export function uploadRoutes(services: Services): express.Router {
  const { keyring, storage, media, config } = services;
  const router = express.Router();

  function refuse(res: Response, err: ApiError): void {
    // The body may still be on its way (up to gigabytes): close rather than read it to the end.
    res.setHeader('Connection', 'close');
    res.set(err.headers).status(err.status).json(errorBody(err, config.publicUrl));
  }

  router.put('/uploads/:token', async (req: Request, res: Response) => {
    const token = readUploadToken(keyring, String(req.params.token));
    if (!token) return refuse(res, badAddress('upload'));
    const record = await media.jobs.get(token.m);
    if (!record) return refuse(res, notFound('media', token.m));
    req.workspaceId = record.workspaceId;
    if (record.uploadedAt) return refuse(res, alreadyUploaded(record.id));
    if (token.exp * 1000 <= Date.now() || record.status !== 'uploading') {
      return refuse(
        res,
        expiredAddress('upload', 'Reserve a new upload with POST /v1/media/uploads; the file was not received.'),
      );
    }
    const sentType = normalizeMime(req.headers['content-type'] ?? '');
    if (sentType !== record.mime) {
      return refuse(
        res,
        new ApiError(
          415,
          'content_type_mismatch',
          `Content-Type is ${sentType ? `"${sentType}"` : 'missing'}; this upload was reserved as ${record.mime}.`,
          `Send the header Content-Type: ${record.mime}, or reserve a new upload with the file's real type.`,
        ),
      );
    }
    const length = req.headers['content-length'] === undefined ? NaN : Number(req.headers['content-length']);
    if (length !== record.size) {
      return refuse(
        res,
        new ApiError(
          400,
          'size_mismatch',
          `Content-Length is ${Number.isNaN(length) ? 'missing' : length}; this upload was reserved for ` +
            `exactly ${record.size} bytes.`,
          'Send the exact bytes of the reserved file with a Content-Length header, or reserve a new upload ' +
            'with the right size.',
        ),
      );
    }
    const stopWatching = watchRate(req, config.uploadMinRate, () => {
      services.logger.info({ reqId: req.id, mediaId: record.id }, 'upload too slow; closing it');
      // Once answered, Node no longer ends the body with its connection: end it so, and storage lets go.
      req.socket.once('close', () => req.destroy());
      refuse(res, tooSlow(config.uploadMinRate));
    });
    try {
      const outcome = await media.receive(record, req, () => (req.complete ? record.size : undefined));
      if (outcome === 'already_uploaded') return refuse(res, alreadyUploaded(record.id));
      if (outcome === 'gone') return refuse(res, notFound('media', record.id));
      res.status(200).json({ mediaId: record.id, status: 'processing' });
    } catch (err) {
      // A cut connection leaves nothing stored; the address works again until it expires. A client that went away
      // fails the request with ECONNRESET ("aborted"): no fault of Herald's, nor a lost database. (A full disk also
      // destroys the request, as the write's pipeline ends.)
      const cut = err instanceof Interrupted || (req.destroyed && !isDiskFull(err));
      // A full disk keeps no part of the file (storage removes it): the address works again once space is freed.
      const refused = cut ? undefined : environmentFault(err);
      if (refused) {
        services.logger.error({ err, reqId: req.id, mediaId: record.id }, refused.message);
        return refuse(res, refused);
      }
      if (!cut) throw err;
      services.logger.info(
        { reqId: req.id, mediaId: record.id },
        'upload interrupted: the connection closed before the whole file arrived; nothing kept',
      );
      // Answered already when the upload was too slow (the answer closed the connection, which interrupted it).
      if (!res.destroyed && !res.headersSent) {
        refuse(
          res,
          new ApiError(
            400,
            'upload_interrupted',
            'The body ended before all its bytes arrived; nothing was kept.',
            'Send the whole file again to the same address before it expires.',
          ),
        );
      }
    } finally {
      stopWatching();
    }
  });

  router.get('/media-files/:token', (req: Request, res: Response) => {
    // With S3 storage, file addresses are presigned bucket addresses; this route serves none.
    if (storage.kind !== 'disk')
      return refuse(
        res,
        new ApiError(
          404,
          'not_found',
          'This server keeps files in S3; it serves none itself.',
          'Use the address Herald gave for the file.',
        ),
      );
    const token = storage.readPublicToken(String(req.params.token));
    if (!token) return refuse(res, badAddress('file'));
    const left = token.exp - Math.floor(Date.now() / 1000);
    if (left <= 0)
      return refuse(
        res,
        expiredAddress('file', 'Ask Herald for the file again (GET /v1/media/{mediaId}) to get a fresh address.'),
      );
    res.type(token.t);
    res.setHeader('Cache-Control', `private, max-age=${left}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(storage.filePath(token.k), (err?: NodeJS.ErrnoException) => {
      if (!err || res.headersSent) return;
      res.removeHeader('Cache-Control');
      refuse(
        res,
        new ApiError(
          404,
          'not_found',
          'The bytes of this file are no longer stored (deleted, or removed by retention).',
          'Upload the file again if you still need it.',
        ),
      );
    });
  });

  return router;
}
