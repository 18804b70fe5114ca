// The minimum pace of an upload PUT (runtime/config.ts UPLOAD_MIN_RATE says why it has one): counted on the
// connection's bytes, so the body stream that storage reads is neither touched nor set flowing early.
import type { IncomingMessage } from 'node:http';
import type { MinimumRate } from '../runtime/config.ts';

/**
 * Calls `tooSlow` once if fewer than `rate.bytes` arrive within one window. A window in which Herald paused reading
 * (storage slower than the link) is not held against the client. Returns the function that stops watching.
 */
export function watchRate(req: IncomingMessage, rate: MinimumRate, tooSlow: () => void): () => void {
  const { socket } = req;
  let counted = socket.bytesRead;
  let pausedByUs = false;
  const onPause = () => {
    pausedByUs = true;
  };
  const timer = setInterval(() => {
    // The whole body is here: whatever storage still does is not the client's pace.
    if (req.complete) return stop();
    const arrived = socket.bytesRead - counted;
    const judged = !pausedByUs && !req.isPaused();
    counted = socket.bytesRead;
    pausedByUs = req.isPaused();
    if (judged && arrived < rate.bytes) {
      stop();
      tooSlow();
    }
  }, rate.windowMs);
  req.on('pause', onPause);
  function stop() {
    clearInterval(timer);
    req.off('pause', onPause);
  }
  return stop;
}
