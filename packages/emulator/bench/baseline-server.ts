// The yardstick for the emulator's throughput: a bare fastify app serving the same JSON payloads
// (one plan, one page of plan summaries) from memory, with no auth, storage or rules.
import { readFileSync } from 'node:fs';
import fastify from 'fastify';

const payloads = JSON.parse(readFileSync(process.argv[2], 'utf8')) as { item: unknown; page: unknown };
const app = fastify({ logger: false });
app.get('/item/:id', async () => payloads.item);
app.get('/list', async () => payloads.page);
app.listen({ port: 0, host: '127.0.0.1' }).then(() => {
  const address = app.server.address();
  console.log(`baseline listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
