import type { StudioResult } from '../template-studio-model';
import type { StudioRequest, StudioResponse } from './studio-protocol';

/** One Studio worker for the screen's life: runs answer in order, matched by their number. */
export interface StudioClient {
  process(request: StudioRequest): Promise<Omit<StudioResult, 'layout'>>;
  terminate(): void;
}

export function createStudioClient(): StudioClient {
  const worker = new Worker(new URL('./studio.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<
    number,
    { resolve: (value: Omit<StudioResult, 'layout'>) => void; reject: (error: Error) => void }
  >();
  worker.onmessage = (event: MessageEvent<StudioResponse>) => {
    const answer = event.data;
    const waiting = pending.get(answer.run);
    if (!waiting) return;
    pending.delete(answer.run);
    if (answer.ok) {
      waiting.resolve({
        png: answer.png,
        jpg: answer.jpg,
        overlayPreview: answer.overlayPreview,
        ms: answer.ms,
      });
    } else {
      waiting.reject(new Error(answer.message));
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const error = new Error(event.message || 'The Studio worker stopped.');
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  return {
    process(request) {
      return new Promise((resolve, reject) => {
        pending.set(request.run, { resolve, reject });
        worker.postMessage(request);
      });
    },
    terminate() {
      worker.terminate();
      pending.clear();
    },
  };
}
