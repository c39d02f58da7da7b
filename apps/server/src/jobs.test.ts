import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { backgroundJobs, JOB_DESCRIPTIONS } from './jobs.js';
import type { Services } from './services.js';

describe('JOB_DESCRIPTIONS', () => {
  it('is every background job, with the description the job runs under', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      DATA_DIR: path.join(os.tmpdir(), 'flashbooth-jobs-test'),
    });
    // The jobs reach their services only when they run: none runs here.
    const jobs = backgroundJobs(config, {} as Services);
    expect(Object.fromEntries(jobs.map((job) => [job.name, job.description]))).toEqual(
      JOB_DESCRIPTIONS,
    );
    expect(jobs.map((job) => job.name)).toEqual(Object.keys(JOB_DESCRIPTIONS));
  });
});
