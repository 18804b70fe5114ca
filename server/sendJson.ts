// Writes a JSON answer, compressed when it is large and the client accepts it: a page of posts is about 49 KB as
// text and a tenth of that compressed. Small answers go plain, where compressing costs more than it saves. Only
// whole JSON answers pass here; event streams, uploads and media files are sent elsewhere, uncompressed.
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import type { ApiResponse } from './apiResponse.ts';

/** Answers of at least this many bytes are compressed. */
export const COMPRESS_FROM = 8 * 1024;

type Encoding = 'br' | 'gzip';

/** The first of `offered` (brotli before gzip, by default) that the request accepts, if any. */
export function acceptedEncoding(req: Request, offered: readonly Encoding[] = ['br', 'gzip']): Encoding | undefined {
  return offered.find((encoding) => req.acceptsEncodings(encoding) === encoding);
}

// A middle brotli quality: close to the best ratio on JSON at a few milliseconds for a large page.
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } };

function encoded(text: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(text, BROTLI) : zlib.gzipSync(text);
}

/** Writes an answer: the JSON text straight to the socket, without express's content negotiation of res.json. */
export function send(res: Response, out: ApiResponse): void {
  res.statusCode = out.status;
  for (const [name, value] of Object.entries(out.headers ?? {})) res.setHeader(name, value);
  if (out.body === undefined) {
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(JSON.stringify(out.body));
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (body.length >= COMPRESS_FROM) {
    res.vary('Accept-Encoding');
    const encoding = acceptedEncoding(res.req);
    if (encoding) {
      body = encoded(body, encoding);
      res.setHeader('Content-Encoding', encoding);
    }
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
