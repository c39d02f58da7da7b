import { S3ServiceException } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { StartupError } from './config.js';
import { databaseStartupError, objectStoreStartupError } from './startup-checks.js';

const URL_ = 'postgres://flashbooth:hunter2-password@db.example.com:6543/booths';

/** An error as pg or Node's socket gives it. */
function failure(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

function s3Failure(status: number, name: string): S3ServiceException {
  return new S3ServiceException({
    name,
    $fault: 'client',
    $metadata: { httpStatusCode: status },
    message: name,
  });
}

const s3 = {
  bucket: 'flashbooth',
  region: 'ap-south-1',
  endpoint: 'http://garage:3900',
  forcePathStyle: true,
  credentials: undefined,
};

describe('DATABASE_URL start-up errors', () => {
  it('say what PostgreSQL answered, name DATABASE_URL and never show the password', () => {
    const cases: [Error, RegExp][] = [
      [
        failure('connect ECONNREFUSED 1.2.3.4:6543', 'ECONNREFUSED'),
        /^DATABASE_URL: nothing accepts connections at db\.example\.com:6543 \(connection refused\)/,
      ],
      [
        failure('getaddrinfo ENOTFOUND db.example.com', 'ENOTFOUND'),
        /^DATABASE_URL: the host name in db\.example\.com:6543 is not known \(ENOTFOUND\)/,
      ],
      [
        failure('Connection terminated due to connection timeout'),
        /^DATABASE_URL: PostgreSQL at db\.example\.com:6543 did not answer within 10 s/,
      ],
      [
        failure('password authentication failed for user "flashbooth"', '28P01'),
        /^DATABASE_URL: PostgreSQL at db\.example\.com:6543 refused the user flashbooth \(password authentication failed .*\); correct the user and password/,
      ],
      [
        failure('database "booths" does not exist', '3D000'),
        /^DATABASE_URL: PostgreSQL at db\.example\.com:6543 has no database booths; create it \(createdb booths\)/,
      ],
      [
        failure('The server does not support SSL connections'),
        /^DATABASE_URL: cannot open the database at db\.example\.com:6543: The server does not support SSL connections; check DATABASE_URL\.$/,
      ],
    ];
    for (const [error, line] of cases) {
      const problem = databaseStartupError(URL_, error);
      expect(problem).toBeInstanceOf(StartupError);
      expect(problem.setting).toBe('DATABASE_URL');
      expect(problem.message).toMatch(line);
      expect(problem.message).not.toContain('hunter2');
      expect(problem.message).not.toContain('\n');
    }
  });
});

describe('object store start-up errors', () => {
  it('name the bucket, the region or the endpoint, whichever is wrong', () => {
    expect(objectStoreStartupError(s3, s3Failure(404, 'NotFound'))?.message).toBe(
      'S3_BUCKET: http://garage:3900 has no bucket flashbooth; create it, or correct S3_BUCKET (and S3_ENDPOINT).',
    );
    expect(objectStoreStartupError(s3, s3Failure(301, 'PermanentRedirect'))?.setting).toBe(
      'S3_REGION',
    );
    const timeout = Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    expect(objectStoreStartupError(s3, timeout)?.message).toBe(
      'S3_ENDPOINT: the object store http://garage:3900 did not answer within 10 s; start the object store there, or correct S3_ENDPOINT.',
    );
    const unknownHost = failure('getaddrinfo ENOTFOUND garage', 'ENOTFOUND');
    expect(objectStoreStartupError(s3, unknownHost)?.message).toMatch(
      /^S3_ENDPOINT: the object store http:\/\/garage:3900 has a host name that is not known \(ENOTFOUND\)/,
    );
  });

  it('on AWS (no endpoint) points at the network or S3_ENDPOINT', () => {
    const refused = failure('connect ECONNREFUSED', 'ECONNREFUSED');
    expect(objectStoreStartupError({ ...s3, endpoint: undefined }, refused)?.message).toBe(
      'S3_REGION: the object store AWS S3 in ap-south-1 refused the connection; check this machine’s network, or set S3_ENDPOINT to your S3-compatible store.',
    );
  });

  it('lets a 403 pass: the store answered, and a policy may allow objects only', () => {
    expect(objectStoreStartupError(s3, s3Failure(403, 'Forbidden'))).toBeUndefined();
  });
});
