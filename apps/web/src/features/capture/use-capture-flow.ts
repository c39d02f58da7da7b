import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { getVisit } from '@/api/visits/visit';
import { getCaptureEntitlement } from './api/get-entitlement';
import { getUploadedMedia } from './api/get-uploaded-media';
import { pingDevice } from './api/ping-device';
import { startCapture } from './api/start-capture';
import { CAPTURE_TIMINGS, CaptureController, type CaptureTimings } from './capture-machine';

/** Runs the capture flow for one booth and template; timings are injectable for tests. */
export function useCaptureFlow(
  deviceId: number,
  templateId: number,
  timings: CaptureTimings = CAPTURE_TIMINGS,
) {
  const controller = useMemo(
    () =>
      new CaptureController(
        {
          entitlement: () => getCaptureEntitlement(deviceId, templateId),
          ping: () => pingDevice(deviceId),
          capture: () => startCapture(deviceId, templateId),
          uploaded: (mediaIds) => getUploadedMedia(mediaIds),
          // The visit's capture: after a reload the screen starts from the server's record.
          visitCapture: async () => (await getVisit(deviceId)).capture,
          templateId,
        },
        timings,
      ),
    [deviceId, templateId, timings],
  );
  useEffect(() => {
    controller.start();
    return () => controller.dispose();
  }, [controller]);
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  return { state, capture: () => controller.capture(), retry: () => controller.retry() };
}
