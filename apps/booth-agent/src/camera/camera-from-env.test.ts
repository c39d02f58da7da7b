import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { cameraFromEnv } from './camera-from-env.js';
import { FolderCamera } from './folder-camera.js';
import { Gphoto2Camera } from './gphoto2-camera.js';
import { RpicamCamera } from './rpicam-camera.js';
import { SimulatedCamera } from './simulated-camera.js';
import { WebcamCamera } from './webcam-camera.js';

describe('cameraFromEnv', () => {
  it('keeps the simulated camera as the default and folder:<dir> as before', () => {
    expect(cameraFromEnv({}).camera).toBeInstanceOf(SimulatedCamera);
    const folder = cameraFromEnv({ BOOTH_CAMERA: `folder:${os.tmpdir()}` });
    expect(folder.camera).toBeInstanceOf(FolderCamera);
    expect(folder.camera?.driver).toBe('folder');
    expect(cameraFromEnv({ BOOTH_CAMERA: 'folder:/no/such/folder' }).problems).toEqual([
      '  BOOTH_CAMERA: the folder /no/such/folder does not exist',
    ]);
  });

  it('builds gphoto2 with its port and model', () => {
    const result = cameraFromEnv({
      BOOTH_CAMERA: 'gphoto2',
      BOOTH_GPHOTO2_PORT: 'usb:001,004',
      BOOTH_GPHOTO2_MODEL: 'Nikon DSC D3400',
    });
    expect(result.problems).toEqual([]);
    expect(result.camera).toBeInstanceOf(Gphoto2Camera);
    expect(result.camera?.driver).toBe('gphoto2');
    expect(result.description).toBe('gphoto2 port usb:001,004 model "Nikon DSC D3400"');
  });

  it('builds the webcam on /dev/video0 by default, and on ffmpeg’s test source for CI', () => {
    const usb = cameraFromEnv({ BOOTH_CAMERA: 'webcam' });
    expect(usb.camera).toBeInstanceOf(WebcamCamera);
    expect(usb.description).toBe('webcam /dev/video0 1920x1080 mjpeg');
    expect((usb.camera as WebcamCamera).args()).toEqual([
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-f',
      'v4l2',
      '-video_size',
      '1920x1080',
      '-input_format',
      'mjpeg',
      '-i',
      '/dev/video0',
      '-vf',
      'select=gte(n\\,15)',
      '-frames:v',
      '1',
      '-c:v',
      'mjpeg',
      '-q:v',
      '2',
      '-f',
      'image2pipe',
      'pipe:1',
    ]);

    const test = cameraFromEnv({
      BOOTH_CAMERA: 'webcam',
      BOOTH_WEBCAM_FORMAT: 'lavfi',
      BOOTH_WEBCAM_DEVICE: 'testsrc2=size=1280x720:rate=30',
      BOOTH_WEBCAM_SIZE: '1280x720',
      BOOTH_WEBCAM_WARMUP_FRAMES: '2',
    });
    expect(test.problems).toEqual([]);
    const args = (test.camera as WebcamCamera).args();
    // lavfi takes its size from the source: no v4l2 options.
    expect(args.slice(4, 8)).toEqual(['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30']);
    expect(args).toContain('select=gte(n\\,2)');
  });

  it('builds rpicam with its size and quality', () => {
    const result = cameraFromEnv({
      BOOTH_CAMERA: 'rpicam',
      BOOTH_RPICAM_SIZE: '4056x3040',
      BOOTH_RPICAM_QUALITY: '95',
    });
    expect(result.camera).toBeInstanceOf(RpicamCamera);
    expect((result.camera as RpicamCamera).args('/tmp/x.jpg')).toEqual([
      '--nopreview',
      '--width',
      '4056',
      '--height',
      '3040',
      '--quality',
      '95',
      '--timeout',
      '1000',
      '--encoding',
      'jpg',
      '--output',
      '/tmp/x.jpg',
    ]);
  });

  it('names every bad variable at once', () => {
    const result = cameraFromEnv({
      BOOTH_CAMERA: 'webcam',
      BOOTH_WEBCAM_DEVICE: 'video0',
      BOOTH_WEBCAM_SIZE: 'big',
      BOOTH_WEBCAM_INPUT_FORMAT: 'mjpeg -evil',
      BOOTH_CAMERA_TIMEOUT_MS: '5s',
    });
    expect(result.camera).toBeUndefined();
    expect(result.problems).toEqual([
      '  BOOTH_CAMERA_TIMEOUT_MS: must be a whole number from 1000 to 600000',
      '  BOOTH_WEBCAM_SIZE: must be WIDTHxHEIGHT, e.g. 1920x1080',
      '  BOOTH_WEBCAM_DEVICE: must be a device such as /dev/video0',
      '  BOOTH_WEBCAM_INPUT_FORMAT: must be a pixel format such as mjpeg or yuyv422',
    ]);
    expect(
      cameraFromEnv({ BOOTH_CAMERA: 'gphoto2', BOOTH_GPHOTO2_PORT: '--reset' }).problems,
    ).toEqual([
      '  BOOTH_GPHOTO2_PORT: must be a gphoto2 port such as usb:001,004 (`gphoto2 --auto-detect` lists them)',
    ]);
    expect(cameraFromEnv({ BOOTH_CAMERA: 'rpicam', BOOTH_RPICAM_QUALITY: '0' }).problems).toEqual([
      '  BOOTH_RPICAM_QUALITY: must be a whole number from 1 to 100',
    ]);
    expect(
      cameraFromEnv({ BOOTH_CAMERA: 'webcam', BOOTH_WEBCAM_FORMAT: 'lavfi' }).problems,
    ).toEqual([
      '  BOOTH_WEBCAM_DEVICE: required with BOOTH_WEBCAM_FORMAT=lavfi, e.g. testsrc2=size=1280x720:rate=30',
    ]);
    expect(cameraFromEnv({ BOOTH_CAMERA: 'canon' }).problems).toEqual([
      '  BOOTH_CAMERA: must be "simulated", "folder:<directory>", "gphoto2", "webcam" or "rpicam"',
    ]);
  });
});
