import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SnsSmsSender } from '../../src/modules/sms/sms.sender.js';

describe('AWS SNS sender', () => {
  let server: Server;
  const requests: URLSearchParams[] = [];
  beforeAll(async () => {
    // A local stand-in for the SNS query API: records the form and answers like SNS does.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        requests.push(new URLSearchParams(body));
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end(
          '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>m-1</MessageId></PublishResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></PublishResponse>',
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    // The integration files of a worker share one process: leave its environment as it was.
    vi.unstubAllEnvs();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('publishes a transactional SMS to the phone', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    const port = (server.address() as AddressInfo).port;
    const sender = new SnsSmsSender(
      { region: 'ap-south-1', endpoint: `http://127.0.0.1:${port}` },
      'FLSHBT',
    );
    await sender.send({
      phone: '+919876543210',
      text: '1234 is your Flashbooth sign-in code.',
      code: '1234',
    });
    sender.close();
    const form = requests[0]!;
    expect(form.get('Action')).toBe('Publish');
    expect(form.get('PhoneNumber')).toBe('+919876543210');
    expect(form.get('Message')).toBe('1234 is your Flashbooth sign-in code.');
    const attributes = [...form.entries()].map(([, value]) => value);
    expect(attributes).toEqual(
      expect.arrayContaining(['AWS.SNS.SMS.SMSType', 'Transactional', 'FLSHBT']),
    );
  });
});
