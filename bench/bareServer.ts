// The baseline for bench/api: a bare express route answering a small JSON body, nothing else.
import express from 'express';

const app = express();
app.get('/bare', (_req, res) => {
  res.json({ ok: true, workspace: { id: 'ws_0000000000000000', plan: 'creator' } });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
