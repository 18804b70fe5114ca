// TikTok's envelope `{data, error}` around every answer, with its 64-bit ids written as bare numbers.
import type { NextFunction, Request, Response } from 'express';
import { randomBase62 } from '../../../domain/ids.ts';

/** TikTok's ids are 64-bit numbers on the wire, past what a JSON number keeps exactly in JavaScript. */
export const int64 = (id: string) => `int64:${id}`;

const envelope = (res: Response, data: object) =>
  res
    .type('json')
    .send(
      JSON.stringify({ data, error: { code: 'ok', message: '', log_id: randomBase62(20) } }).replace(
        /"int64:(\d+)"/g,
        '$1',
      ),
    );

/** A route answering TikTok's envelope with what `work` finds; refusals go to the router's error handler. */
export const handle =
  (work: (req: Request) => Promise<object>) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      envelope(res, await work(req));
    } catch (err) {
      next(err);
    }
  };
