import { describe, expect, it } from 'vitest';
import { FIXED_NOW, recordingLog } from '../test/fakes.js';
import { SimulatedCamera } from './camera/simulated-camera.js';
import { DeliveryQueue } from './delivery/delivery-queue.js';
import { MemoryQueueFolder } from './delivery/queue-folder.js';
import { BoothHealth } from './health.js';
import type { Printer, PrinterStatus } from './printer/printer.js';

function health(printer: Printer, lastDeliveryAt: string | null = null) {
  const log = recordingLog();
  const queue = new DeliveryQueue({ folder: new MemoryQueueFolder(), warnItems: 5, log });
  return new BoothHealth({
    camera: new SimulatedCamera(),
    printer,
    queue,
    diskDir: process.cwd(),
    lastDeliveryAt: () => lastDeliveryAt,
    now: () => FIXED_NOW,
    log,
  });
}

const print = () => Promise.resolve({ jobId: '1' });

describe('BoothHealth', () => {
  it('reports the camera, the printer, the disk, the queue and the last delivery', async () => {
    let asked = 0;
    const printer: Printer = {
      print,
      status: () => {
        asked += 1;
        return Promise.resolve<PrinterStatus>({ state: 'paper_out', message: 'Load paper.' });
      },
    };
    const booth = health(printer, '2025-05-14T10:00:00');
    await booth.refresh();
    await booth.refresh();
    // lpstat is asked at most every 30 s.
    expect(asked).toBe(1);
    booth.cameraResult(new Error('Camera not found'));
    const snapshot = booth.snapshot();
    expect(snapshot).toMatchObject({
      camera: {
        driver: 'simulated',
        ok: false,
        message: 'Camera not found',
        checked_at: '2025-05-14T10:20:30',
      },
      printer: { state: 'paper_out', message: 'Load paper.' },
      queue: { items: 0, bytes: 0, oldest_at: null, over_limit: false },
      last_delivery_at: '2025-05-14T10:00:00',
    });
    expect(snapshot.disk?.total_bytes).toBeGreaterThan(0);
    booth.cameraResult(undefined);
    expect(booth.snapshot().camera).toMatchObject({ ok: true, message: null });
  });

  it('says unknown for a printer that cannot tell or fails to', async () => {
    const silent = health({ print });
    await silent.refresh();
    expect(silent.snapshot().printer).toEqual({ state: 'unknown', message: null });
    const failing = health({ print, status: () => Promise.reject(new Error('lpstat: not found')) });
    await failing.refresh();
    expect(failing.snapshot().printer).toMatchObject({
      state: 'unknown',
      message: expect.stringMatching(/lpstat: not found/),
    });
  });
});
