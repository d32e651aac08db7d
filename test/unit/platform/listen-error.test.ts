import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainListenError } from '../../../worker/process/listen';

const error = (code: string, message = `listen ${code}`) => Object.assign(new Error(message), { code });

test('a port that cannot be listened on is explained with the setting to change', () => {
  assert.equal(
    explainListenError(error('EADDRINUSE'), 'the cockpit', '127.0.0.1', 3000, 'PORT'),
    'the cockpit cannot listen on 127.0.0.1:3000: another program uses that port (is Tidemark already running?). Stop it, or choose another port with PORT=…',
  );
  assert.match(explainListenError(error('EACCES'), 'the demo web site', '127.0.0.1', 80, 'TIDEMARK_DEMO_PORT'), /:80: not allowed \(ports below 1024 need privileges\)\. Choose another port with TIDEMARK_DEMO_PORT=…$/);
  assert.match(explainListenError(error('EADDRNOTAVAIL'), 'the cockpit', '10.9.9.9', 3000, 'PORT'), /10\.9\.9\.9 is not an address of this machine\. Set HOST/);
  assert.equal(explainListenError(error('EINVAL', 'odd'), 'the cockpit', '127.0.0.1', 3000, 'PORT'), 'the cockpit cannot listen on 127.0.0.1:3000: odd');
});
