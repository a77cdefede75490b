// The yardstick every row is divided by: a bare node:http server answering a 200-byte JSON body.
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ ok: true, message: 'fulcrum baseline', pad: 'x'.repeat(151) }));
if (body.length !== 200) throw new Error(`baseline body is ${body.length} bytes, not 200`);

const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`READY http://127.0.0.1:${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
